import FerryModel

/// One token of a mapping expression and the file column where it starts.
struct ExpressionToken: Equatable {
    enum Kind: Equatable {
        /// Decimal digits of an integer literal (no sign).
        case integer(String)
        /// A literal with a point or an exponent, in `DecimalNotation` plain form.
        case decimal(String)
        case string(String)
        case identifier(String)
        /// A backquoted attribute name.
        case quotedName(String)
        /// `$name`, without the `$`.
        case variable(String)
        /// `$` alone: the current part of a made record's `for $ in split(…)`.
        case part
        /// Punctuation and operators: `( ) [ ] { } , : + - * / == != < <= > >=`.
        case symbol(String)
        case end
    }

    let kind: Kind
    let column: Int
}

/// Splits an expression into tokens; columns are counted in Unicode scalars from `startColumn`.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private let line: Int
    private let startColumn: Int
    private var index = 0

    init(_ text: String, line: Int, column: Int) {
        scalars = Array(text.unicodeScalars)
        self.line = line
        startColumn = column
    }

    /// Every token of the text, ending with `.end`.
    mutating func tokens() throws(ExpressionSyntaxError) -> [ExpressionToken] {
        var tokens: [ExpressionToken] = []
        while true {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
            let column = startColumn + index
            guard index < scalars.count else {
                tokens.append(ExpressionToken(kind: .end, column: column))
                return tokens
            }
            tokens.append(ExpressionToken(kind: try kind(), column: column))
        }
    }

    private mutating func kind() throws(ExpressionSyntaxError) -> ExpressionToken.Kind {
        let start = index
        let scalar = scalars[index]
        if Self.isDigit(scalar) { return try number() }
        if Self.isIdentifierStart(scalar) { return .identifier(identifier()) }
        index += 1
        switch scalar {
        case "\"": return try string(openedAt: start)
        case "`": return try quotedName(openedAt: start)
        case "$":
            guard index < scalars.count, Self.isIdentifierStart(scalars[index]) else {
                if index < scalars.count, Self.isDigit(scalars[index]) {
                    throw error(at: start, "'$' must be followed by a variable name, or stand alone for the current part")
                }
                return .part
            }
            return .variable(identifier())
        case "(", ")", "[", "]", "{", "}", ",", ":", "+", "-", "*", "/":
            return .symbol(String(scalar))
        case "<", ">":
            if next("=") { return .symbol(String(scalar) + "=") }
            return .symbol(String(scalar))
        case "=":
            guard next("=") else { throw error(at: start, "'=' is not an operator here; compare with '=='") }
            return .symbol("==")
        case "!":
            guard next("=") else { throw error(at: start, "'!' is not an operator; negate with 'not'") }
            return .symbol("!=")
        default:
            throw error(at: start, "unexpected character '\(scalar)'")
        }
    }

    private mutating func number() throws(ExpressionSyntaxError) -> ExpressionToken.Kind {
        let start = index
        skipDigits()
        var isDecimal = false
        if index + 1 < scalars.count, scalars[index] == ".", Self.isDigit(scalars[index + 1]) {
            index += 1
            skipDigits()
            isDecimal = true
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            guard index < scalars.count, Self.isDigit(scalars[index]) else {
                throw error(at: start, "malformed number: the exponent has no digits")
            }
            skipDigits()
            isDecimal = true
        }
        if index < scalars.count, Self.isIdentifierStart(scalars[index]) || scalars[index] == "." {
            throw error(at: index, "unexpected '\(scalars[index])' after a number")
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        guard isDecimal else { return .integer(text) }
        guard let plain = DecimalNotation.plain(text.utf8) else {
            throw error(at: start, "number \(text) is out of range")
        }
        return .decimal(plain)
    }

    private mutating func string(openedAt start: Int) throws(ExpressionSyntaxError) -> ExpressionToken.Kind {
        var text = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"": return .string(String(text))
            case "\\":
                guard index < scalars.count else { break }
                let escaped = scalars[index]
                switch escaped {
                case "\"", "\\": text.append(escaped)
                case "n": text.append("\n")
                case "t": text.append("\t")
                default: throw error(at: index - 1, "unknown escape '\\\(escaped)' (use \\\" \\\\ \\n or \\t)")
                }
                index += 1
            default: text.append(scalar)
            }
        }
        throw error(at: start, "unterminated string")
    }

    private mutating func quotedName(openedAt start: Int) throws(ExpressionSyntaxError) -> ExpressionToken.Kind {
        let nameStart = index
        while index < scalars.count, scalars[index] != "`" { index += 1 }
        guard index < scalars.count else { throw error(at: start, "unterminated `name`") }
        guard index > nameStart else { throw error(at: start, "empty `name`") }
        let name = String(String.UnicodeScalarView(scalars[nameStart..<index]))
        index += 1
        return .quotedName(name)
    }

    private mutating func identifier() -> String {
        let start = index
        while index < scalars.count, Self.isIdentifierStart(scalars[index]) || Self.isDigit(scalars[index]) { index += 1 }
        return String(String.UnicodeScalarView(scalars[start..<index]))
    }

    private mutating func skipDigits() {
        while index < scalars.count, Self.isDigit(scalars[index]) { index += 1 }
    }

    private mutating func next(_ expected: Unicode.Scalar) -> Bool {
        guard index < scalars.count, scalars[index] == expected else { return false }
        index += 1
        return true
    }

    private func error(at offset: Int, _ message: String) -> ExpressionSyntaxError {
        ExpressionSyntaxError(line: line, column: startColumn + offset, message: message)
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    /// Whether a name can be written without backquotes.
    static func isPlainIdentifier(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard let first = scalars.first, isIdentifierStart(first) else { return false }
        return scalars.allSatisfy { isIdentifierStart($0) || isDigit($0) }
    }
}
