/// Splits predicate text into tokens, scanning its UTF-8 bytes once.
struct PredicateLexer {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// Every token, ending with `.end`. Characters that start no token become `.invalid` tokens so
    /// that the parser can say what it expected there; malformed strings and numbers throw.
    static func tokens(of text: String) throws(FetchPredicateError) -> [PredicateToken] {
        var lexer = PredicateLexer(text)
        var result: [PredicateToken] = []
        while true {
            let token = try lexer.next()
            result.append(token)
            if token.kind == .end { return result }
        }
    }

    /// The 1-based column (in Unicode scalars) of a byte offset in `text`.
    static func column(ofOffset offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    private mutating func next() throws(FetchPredicateError) -> PredicateToken {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        let start = index
        guard index < bytes.count else { return PredicateToken(kind: .end, offset: start) }
        let byte = bytes[index]
        let kind: PredicateToken.Kind
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            kind = .string(try string(quote: byte))
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            kind = try number()
        case UInt8(ascii: "-") where index + 1 < bytes.count && Self.isDigit(bytes[index + 1]):
            kind = try number()
        case UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: "@"):
            index += 1
            guard let name = identifier() else { return invalid(start) }
            switch byte {
            case UInt8(ascii: "$"): kind = .variable(name)
            case UInt8(ascii: "#"): kind = .identifier(name, escaped: true)
            default: kind = .identifier("@" + name, escaped: false)
            }
        case _ where Self.isIdentifierStart(byte):
            kind = .identifier(identifier() ?? "", escaped: false)
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: "."):
            index += 1
            kind = .punctuation(byte)
        default:
            guard let symbol = symbol() else { return invalid(start) }
            kind = .symbol(symbol)
        }
        return PredicateToken(kind: kind, offset: start)
    }

    /// Operators, longest spelling first, with their canonical form.
    private static let symbols: [(spelling: String, canonical: String)] = [
        ("==", "=="), ("!=", "!="), ("<>", "!="), ("<=", "<="), ("=<", "<="), (">=", ">="), ("=>", ">="),
        ("&&", "&&"), ("||", "||"), ("=", "=="), ("<", "<"), (">", ">"), ("!", "!"),
    ]

    private mutating func symbol() -> String? {
        for (spelling, canonical) in Self.symbols {
            let utf8 = Array(spelling.utf8)
            if bytes[index...].starts(with: utf8) {
                index += utf8.count
                return canonical
            }
        }
        return nil
    }

    /// An `.invalid` token for the whole character at `start`.
    private mutating func invalid(_ start: Int) -> PredicateToken {
        index = start + 1
        while index < bytes.count, bytes[index] & 0xC0 == 0x80 { index += 1 }
        return PredicateToken(kind: .invalid(String(decoding: bytes[start..<index], as: UTF8.self)), offset: start)
    }

    private mutating func identifier() -> String? {
        let start = index
        guard index < bytes.count, Self.isIdentifierStart(bytes[index]) else { return nil }
        while index < bytes.count, Self.isIdentifierStart(bytes[index]) || Self.isDigit(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func number() throws(FetchPredicateError) -> PredicateToken.Kind {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        var isReal = false
        skipDigits()
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "."), Self.isDigit(bytes[index + 1]) {
            isReal = true
            index += 1
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            var exponent = index + 1
            if exponent < bytes.count, bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-") { exponent += 1 }
            if exponent < bytes.count, Self.isDigit(bytes[exponent]) {
                isReal = true
                index = exponent
                skipDigits()
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if index < bytes.count, Self.isIdentifierStart(bytes[index]) {
            throw syntax(at: start, expected: "a number", found: text + String(decoding: [bytes[index]], as: UTF8.self))
        }
        if !isReal, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else {
            throw syntax(at: start, expected: "a finite number", found: text)
        }
        return .real(value)
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    /// A quoted string; `\\`, `\"`, `\'`, `\n`, `\r`, `\t`, `\0` and `\uXXXX` escapes.
    private mutating func string(quote: UInt8) throws(FetchPredicateError) -> String {
        let start = index
        index += 1
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                index += 1
                return String(decoding: text, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): text.append(escape)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "0"): text.append(0x00)
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count,
                      let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(code) else {
                    throw syntax(at: index - 2, expected: "four hex digits of a Unicode scalar after \\u", found: "\\u")
                }
                text.append(contentsOf: Array(String(Character(scalar)).utf8))
                index += 4
            default:
                throw syntax(at: index - 2, expected: "an escape (\\\\ \\\" \\' \\n \\r \\t \\0 \\uXXXX)",
                             found: "\\" + String(decoding: [escape], as: UTF8.self))
            }
        }
        throw syntax(at: start, expected: "a closing \(quote == UInt8(ascii: "'") ? "'" : "\"") for this string",
                     found: "end of input")
    }

    private func syntax(at offset: Int, expected: String, found: String) -> FetchPredicateError {
        .syntax(column: Self.column(ofOffset: offset, in: String(decoding: bytes, as: UTF8.self)),
                expected: expected, found: found)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// ASCII letters, `_` and any non-ASCII byte (names may be Unicode; the model decides).
    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }
}
