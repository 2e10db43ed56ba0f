/// Recursive-descent parser of mapping expressions; the grammar is documented on `MappingExpression`.
///
/// Two limits keep hostile text from overflowing the stack, here or in what walks the tree:
/// nesting (`MappingExpression.maxNesting`: parentheses, arguments and list items, `not`, `-`,
/// `if … else`) and the depth of the tree (`MappingExpression.maxDepth`: each operator of a
/// chain such as `a + b + c` is one level more). Both are reported at the token that passes them.
struct ExpressionParser {
    /// Words that cannot be bare attribute names (write them in backquotes).
    static let keywords: Set<String> = ["and", "or", "not", "if", "else", "between", "in", "nil", "true", "false"]

    private let tokens: [ExpressionToken]
    private let line: Int
    private var position = 0
    private var nesting = 0

    init(_ text: String, line: Int, column: Int) throws(ExpressionSyntaxError) {
        var lexer = ExpressionLexer(text, line: line, column: column)
        tokens = try lexer.tokens()
        self.line = line
    }

    /// The whole text as one expression.
    mutating func parse() throws(ExpressionSyntaxError) -> ExpressionNode {
        if case .end = current.kind { throw error(at: current, "expected an expression") }
        let node = try conditional()
        guard case .end = current.kind else { throw error(at: current, "unexpected \(Self.describe(current)) after the expression") }
        return node
    }

    private var current: ExpressionToken { tokens[min(position, tokens.count - 1)] }

    private mutating func advance() -> ExpressionToken {
        let token = current
        position += 1
        return token
    }

    private func isSymbol(_ symbol: String) -> Bool { current.kind == .symbol(symbol) }
    private func isKeyword(_ word: String) -> Bool { current.kind == .identifier(word) }

    private mutating func expect(_ symbol: String, _ context: String) throws(ExpressionSyntaxError) {
        guard isSymbol(symbol) else { throw error(at: current, "expected '\(symbol)' \(context), found \(Self.describe(current))") }
        position += 1
    }

    /// Enters one more level of nesting, which starts at the current token; callers leave it
    /// with `nesting -= 1`.
    private mutating func enterNesting() throws(ExpressionSyntaxError) {
        nesting += 1
        guard nesting <= MappingExpression.maxNesting else {
            throw error(at: current, "the expression nests deeper than \(MappingExpression.maxNesting) levels "
                + "(parentheses, arguments, not, - and if … else each add one)")
        }
    }

    /// `node`, unless the tree has grown deeper than `MappingExpression.maxDepth` at `token`.
    private func checked(_ node: ExpressionNode, at token: ExpressionToken) throws(ExpressionSyntaxError) -> ExpressionNode {
        guard node.depth <= MappingExpression.maxDepth else {
            throw error(at: token, "the expression is more than \(MappingExpression.maxDepth) operations deep "
                + "(each operator of a chain such as a + b + … adds one; group terms with parentheses)")
        }
        return node
    }

    // conditional := or ['if' or 'else' conditional]
    private mutating func conditional() throws(ExpressionSyntaxError) -> ExpressionNode {
        try enterNesting()
        defer { nesting -= 1 }
        let value = try binary(.or)
        guard isKeyword("if") else { return value }
        position += 1
        let condition = try binary(.or)
        guard isKeyword("else") else { throw error(at: current, "expected 'else' to finish 'if', found \(Self.describe(current))") }
        position += 1
        let otherwise = try conditional()
        return ExpressionNode(kind: .conditional(value: value, condition: condition, otherwise: otherwise), column: value.column)
    }

    /// Left-associative binary levels: or, and, additive, multiplicative.
    private mutating func binary(_ level: ExpressionPrecedence) throws(ExpressionSyntaxError) -> ExpressionNode {
        if level == .not { return try negation() }
        if level == .unary { return try unary() }
        var left = try binary(level.tighter)
        while let op = operatorHere(at: level) {
            let token = advance()
            let right = try binary(level.tighter)
            left = try checked(ExpressionNode(kind: .binary(op, left, right), column: left.column), at: token)
        }
        return left
    }

    private func operatorHere(at level: ExpressionPrecedence) -> ExpressionOperator? {
        let op: ExpressionOperator? = switch current.kind {
        case let .identifier(word) where word == "and" || word == "or": ExpressionOperator(rawValue: word)
        case let .symbol(symbol): ExpressionOperator(rawValue: symbol)
        default: nil
        }
        guard let op, op.precedence == level else { return nil }
        return op
    }

    // not := 'not' not | comparison
    private mutating func negation() throws(ExpressionSyntaxError) -> ExpressionNode {
        guard isKeyword("not") else { return try comparison() }
        try enterNesting()
        defer { nesting -= 1 }
        let token = advance()
        return ExpressionNode(kind: .not(try negation()), column: token.column)
    }

    // comparison := additive [(cmp additive) | 'between' additive 'and' additive | 'in' '[' list ']']
    private mutating func comparison() throws(ExpressionSyntaxError) -> ExpressionNode {
        let left = try binary(.additive)
        let node: ExpressionNode
        if case let .symbol(symbol) = current.kind, let op = ExpressionOperator(rawValue: symbol), op.precedence == .comparison {
            let token = advance()
            node = try checked(ExpressionNode(kind: .binary(op, left, try binary(.additive)), column: left.column), at: token)
        } else if isKeyword("between") {
            position += 1
            let low = try binary(.additive)
            guard isKeyword("and") else { throw error(at: current, "expected 'and' in 'between', found \(Self.describe(current))") }
            position += 1
            node = ExpressionNode(kind: .between(left, low: low, high: try binary(.additive)), column: left.column)
        } else if isKeyword("in") {
            position += 1
            try expect("[", "after 'in'")
            node = ExpressionNode(kind: .membership(left, try list(closedBy: "]")), column: left.column)
        } else {
            return left
        }
        if case let .symbol(symbol) = current.kind, ExpressionOperator(rawValue: symbol)?.precedence == .comparison {
            throw error(at: current, "comparisons do not chain; use 'and' or parentheses")
        }
        if isKeyword("between") || isKeyword("in") {
            throw error(at: current, "comparisons do not chain; use 'and' or parentheses")
        }
        return node
    }

    // unary := '-' unary | primary
    private mutating func unary() throws(ExpressionSyntaxError) -> ExpressionNode {
        guard isSymbol("-") else { return try primary() }
        try enterNesting()
        defer { nesting -= 1 }
        let minus = advance()
        if case let .integer(digits) = current.kind {
            let number = advance()
            guard let value = Int64("-" + digits) else { throw error(at: number, "integer -\(digits) is out of range") }
            return ExpressionNode(kind: .literal(.integer(value)), column: minus.column)
        }
        if case let .decimal(text) = current.kind {
            position += 1
            let negated = text == "0" || text.hasPrefix("-") ? text : "-" + text
            return ExpressionNode(kind: .literal(.decimal(negated)), column: minus.column)
        }
        return ExpressionNode(kind: .negate(try unary()), column: minus.column)
    }

    private mutating func primary() throws(ExpressionSyntaxError) -> ExpressionNode {
        let token = advance()
        switch token.kind {
        case let .integer(digits):
            guard let value = Int64(digits) else { throw error(at: token, "integer \(digits) is out of range") }
            return ExpressionNode(kind: .literal(.integer(value)), column: token.column)
        case let .decimal(text): return ExpressionNode(kind: .literal(.decimal(text)), column: token.column)
        case let .string(text): return ExpressionNode(kind: .literal(.string(text)), column: token.column)
        case let .variable(name): return ExpressionNode(kind: .variable(name), column: token.column)
        case .part: return ExpressionNode(kind: .part, column: token.column)
        case let .quotedName(name):
            if isSymbol("(") { throw error(at: token, "`\(name)` is an attribute name, not a function") }
            return ExpressionNode(kind: .attribute(name), column: token.column)
        case .symbol("("):
            let inner = try conditional()
            try expect(")", "to close '('")
            return inner
        case let .identifier(word):
            switch word {
            case "nil": return ExpressionNode(kind: .literal(.null), column: token.column)
            case "true", "false": return ExpressionNode(kind: .literal(.bool(word == "true")), column: token.column)
            case _ where Self.keywords.contains(word):
                throw error(at: token, "expected a value, found '\(word)' (write an attribute of that name as `\(word)`)")
            case _ where isSymbol("("): return try call(word, at: token)
            default: return ExpressionNode(kind: .attribute(word), column: token.column)
            }
        default:
            throw error(at: token, "expected a value, found \(Self.describe(token))")
        }
    }

    private mutating func call(_ name: String, at token: ExpressionToken) throws(ExpressionSyntaxError) -> ExpressionNode {
        guard let function = ExpressionFunction(rawValue: name) else {
            let known = ExpressionFunction.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(at: token, "unknown function '\(name)' (known: \(known))")
        }
        position += 1
        if function == .lookup { return try lookup(at: token) }
        let arguments = try list(closedBy: ")")
        let (minimum, maximum) = function.arity
        guard arguments.count >= minimum, arguments.count <= (maximum ?? Int.max) else {
            throw error(at: token, "\(name)() takes \(function.arityDescription), got \(arguments.count)")
        }
        guard function == .date, arguments.count >= 2 else {
            return ExpressionNode(kind: .call(function, arguments), column: token.column)
        }
        var pattern: DatePattern?
        if case let .literal(.string(format)) = arguments[1].kind {
            do { pattern = try DatePattern(format) } catch {
                throw ExpressionSyntaxError(line: line, column: arguments[1].column, message: error.reason)
            }
        }
        if arguments.count == 3, case let .literal(.string(zone)) = arguments[2].kind, case let .failure(failure) = LocalTime.zone(named: zone) {
            throw ExpressionSyntaxError(line: line, column: arguments[2].column, message: failure.reason)
        }
        let kind = ExpressionNode.Kind.formattedDate(text: arguments[0], format: arguments[1], pattern: pattern,
                                                     zone: arguments.count == 3 ? arguments[2] : nil)
        return ExpressionNode(kind: kind, column: token.column)
    }

    // lookup := 'lookup' '(' conditional ',' '{' [key ':' conditional {',' key ':' conditional}] '}' [',' conditional] ')'
    private mutating func lookup(at token: ExpressionToken) throws(ExpressionSyntaxError) -> ExpressionNode {
        let key = try conditional()
        try expect(",", "after the key of lookup()")
        try expect("{", "to open lookup()'s table")
        var table: [ExpressionNode.LookupEntry] = []
        while !isSymbol("}") {
            if !table.isEmpty { try expect(",", "between table entries") }
            let keyToken = current
            let literal = try tableKey()
            if table.contains(where: { ExpressionValues.sameKey($0.key.value, literal.value) }) {
                throw error(at: keyToken, "duplicate key \(literal) in lookup()'s table")
            }
            try expect(":", "after a table key")
            table.append(ExpressionNode.LookupEntry(key: literal, value: try conditional()))
        }
        position += 1
        var otherwise: ExpressionNode?
        if isSymbol(",") {
            position += 1
            otherwise = try conditional()
        }
        try expect(")", "to close lookup()")
        return ExpressionNode(kind: .lookup(key, table: table, otherwise: otherwise), column: token.column)
    }

    /// A table key: a number (optionally negative), a string or a boolean.
    private mutating func tableKey() throws(ExpressionSyntaxError) -> ExpressionLiteral {
        let start = current
        let node = try unary()
        switch node.kind {
        case let .literal(literal) where literal != .null: return literal
        default: throw error(at: start, "lookup() table keys must be numbers, strings or booleans")
        }
    }

    /// Comma-separated expressions up to the closing symbol (the opening one is consumed).
    private mutating func list(closedBy closing: String) throws(ExpressionSyntaxError) -> [ExpressionNode] {
        var items: [ExpressionNode] = []
        while !isSymbol(closing) {
            if !items.isEmpty { try expect(",", "or '\(closing)' in the list") }
            if case .end = current.kind { break }
            items.append(try conditional())
        }
        try expect(closing, "to close the list")
        return items
    }

    private func error(at token: ExpressionToken, _ message: String) -> ExpressionSyntaxError {
        ExpressionSyntaxError(line: line, column: token.column, message: message)
    }

    private static func describe(_ token: ExpressionToken) -> String {
        switch token.kind {
        case let .integer(text), let .decimal(text): "number \(text)"
        case let .string(text): "string \(ExpressionLiteral.string(text))"
        case let .identifier(name): "'\(name)'"
        case let .quotedName(name): "`\(name)`"
        case let .variable(name): "$\(name)"
        case .part: "'$'"
        case let .symbol(symbol): "'\(symbol)'"
        case .end: "the end of the expression"
        }
    }
}
