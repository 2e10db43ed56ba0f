import FerryModel
/// Recursive-descent parser for predicate format strings.
///
/// Precedence, loosest first: `OR`/`||`, `AND`/`&&`, `NOT`/`!`, then comparisons and parentheses.
/// Keywords are case-insensitive; a key named like a keyword is written `#name`.
///
/// Nesting (parentheses, `NOT`, `{lists}`) goes at most `FetchPredicate.maxNesting` levels and a
/// predicate holds at most `FetchPredicate.maxComparisons` comparisons, so neither this parser nor
/// what walks the predicate (the SQL compiler, SQLite's own parser, the in-memory evaluator)
/// recurses without bound.
struct PredicateParser {
    private let text: String
    private let tokens: [PredicateToken]
    private var position = 0
    private var nesting = 0
    private var comparisons = 0

    init(_ text: String) throws(FetchPredicateError) {
        self.text = text
        tokens = try PredicateLexer.tokens(of: text)
    }

    /// Parses the whole text as one predicate.
    mutating func parsePredicate() throws(FetchPredicateError) -> FetchPredicate {
        let predicate = try orPredicate()
        try expectEnd("AND, OR or the end of the predicate")
        return predicate
    }

    // MARK: Predicates

    private mutating func orPredicate() throws(FetchPredicateError) -> FetchPredicate {
        var parts = [try andPredicate()]
        while take(keyword: "OR", symbol: "||") { parts.append(try andPredicate()) }
        return parts.count == 1 ? parts[0] : .or(parts.flatMap { if case .or(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func andPredicate() throws(FetchPredicateError) -> FetchPredicate {
        var parts = [try notPredicate()]
        while take(keyword: "AND", symbol: "&&") { parts.append(try notPredicate()) }
        return parts.count == 1 ? parts[0] : .and(parts.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func notPredicate() throws(FetchPredicateError) -> FetchPredicate {
        let start = current
        if take(keyword: "NOT", symbol: "!") {
            try enterNesting(at: start)
            defer { nesting -= 1 }
            return .not(try notPredicate())
        }
        if take(punctuation: "(") {
            try enterNesting(at: start)
            defer { nesting -= 1 }
            let inner = try orPredicate()
            try expect(punctuation: ")", "')'")
            return inner
        }
        try countComparison(at: start)
        switch current.keyword {
        case "TRUEPREDICATE": position += 1; return .constant(true)
        case "FALSEPREDICATE": position += 1; return .constant(false)
        default: return .comparison(try comparison())
        }
    }

    /// One more level of nesting, which starts at `token`.
    private mutating func enterNesting(at token: PredicateToken) throws(FetchPredicateError) {
        nesting += 1
        guard nesting <= FetchPredicate.maxNesting else {
            throw .nestedTooDeep(column: PredicateLexer.column(ofOffset: token.offset, in: text), limit: FetchPredicate.maxNesting)
        }
    }

    /// One more comparison (or constant), which starts at `token`.
    private mutating func countComparison(at token: PredicateToken) throws(FetchPredicateError) {
        comparisons += 1
        guard comparisons <= FetchPredicate.maxComparisons else {
            throw .tooManyComparisons(column: PredicateLexer.column(ofOffset: token.offset, in: text), limit: FetchPredicate.maxComparisons)
        }
    }

    private mutating func comparison() throws(FetchPredicateError) -> Comparison {
        var quantifier: Quantifier?
        switch current.keyword {
        case "ANY", "SOME": quantifier = .any
        case "ALL": quantifier = .all
        case "NONE": quantifier = Quantifier.none
        default: break
        }
        if quantifier != nil { position += 1 }
        let left = try operand()
        let comparisonOperator = try operatorToken()
        let options = try modifiers()
        let right = try operand()
        return Comparison(quantifier: quantifier, left, comparisonOperator, options: options, right)
    }

    private mutating func operatorToken() throws(FetchPredicateError) -> ComparisonOperator {
        let token = current
        let found: ComparisonOperator?
        switch token.kind {
        case .symbol(let symbol): found = ComparisonOperator(rawValue: symbol)
        default: found = token.keyword.flatMap { ComparisonOperator(rawValue: $0) }
        }
        guard let found else {
            throw error(at: token, expected: "a comparison operator (==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES)")
        }
        position += 1
        return found
    }

    /// `[c]`, `[d]`, `[cd]` (or `[dc]`) right after an operator.
    private mutating func modifiers() throws(FetchPredicateError) -> ComparisonOptions {
        guard take(punctuation: "[") else { return [] }
        let token = current
        guard case .identifier(let letters, false) = token.kind, !letters.isEmpty else {
            throw error(at: token, expected: "a modifier (c, d or cd)")
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c" where !options.contains(.caseInsensitive): options.insert(.caseInsensitive)
            case "d" where !options.contains(.diacriticInsensitive): options.insert(.diacriticInsensitive)
            default: throw error(at: token, expected: "a modifier (c, d or cd)")
            }
        }
        position += 1
        try expect(punctuation: "]", "']' closing the modifier")
        return options
    }

    // MARK: Operands

    private mutating func operand() throws(FetchPredicateError) -> PredicateOperand {
        let token = current
        switch token.kind {
        case .integer(let value): position += 1; return .value(.integer(value))
        case .real(let value): position += 1; return .value(.real(value))
        case .string(let text): position += 1; return .value(.string(text))
        case .variable(let name): position += 1; return .variable(name)
        case .punctuation(UInt8(ascii: "{")): return try aggregate()
        case .identifier(let name, _):
            switch token.keyword {
            case nil: return try keyPath(first: name)
            case "NIL", "NULL": position += 1; return .value(.null)
            case "YES", "TRUE": position += 1; return .value(.bool(true))
            case "NO", "FALSE": position += 1; return .value(.bool(false))
            case "CAST": return try cast()
            default: throw error(at: token, expected: "a key path, a value or a $variable")
            }
        default:
            throw error(at: token, expected: "a key path, a value or a $variable")
        }
    }

    private mutating func keyPath(first: String) throws(FetchPredicateError) -> PredicateOperand {
        position += 1
        var components = [first]
        while take(punctuation: ".") {
            let token = current
            guard case .identifier(let name, _) = token.kind, token.keyword == nil else {
                throw error(at: token, expected: "a key after '.'")
            }
            components.append(name)
            position += 1
        }
        return .keyPath(components)
    }

    private mutating func aggregate() throws(FetchPredicateError) -> PredicateOperand {
        try enterNesting(at: current)
        defer { nesting -= 1 }
        position += 1
        var elements: [PredicateOperand] = []
        if take(punctuation: "}") { return .aggregate(elements) }
        repeat {
            elements.append(try operand())
        } while take(punctuation: ",")
        try expect(punctuation: "}", "',' or '}'")
        return .aggregate(elements)
    }

    /// `CAST('2014-01-01T00:00:00Z', 'NSDate')` or `CAST(410227200, 'NSDate')`.
    private mutating func cast() throws(FetchPredicateError) -> PredicateOperand {
        position += 1
        try expect(punctuation: "(", "'(' after CAST")
        let valueToken = current
        let seconds: Double
        switch valueToken.kind {
        case .integer(let value): seconds = Double(value)
        case .real(let value): seconds = value
        case .string(let text):
            guard let parsed = ISO8601Date.parse(text) else {
                throw error(at: valueToken, expected: "an ISO 8601 date (2014-01-01T00:00:00Z)")
            }
            seconds = parsed
        default: throw error(at: valueToken, expected: "a date string or a number of seconds")
        }
        position += 1
        try expect(punctuation: ",", "',' in CAST")
        let typeToken = current
        guard case .string("NSDate") = typeToken.kind else { throw error(at: typeToken, expected: "'NSDate'") }
        position += 1
        try expect(punctuation: ")", "')' closing CAST")
        return .value(.date(seconds))
    }

    // MARK: Tokens

    private var current: PredicateToken { tokens[min(position, tokens.count - 1)] }

    private mutating func take(keyword: String, symbol: String) -> Bool {
        guard current.keyword == keyword || current.kind == .symbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func take(punctuation: Unicode.Scalar) -> Bool {
        guard current.kind == .punctuation(UInt8(ascii: punctuation)) else { return false }
        position += 1
        return true
    }

    private mutating func expect(punctuation: Unicode.Scalar, _ expected: String) throws(FetchPredicateError) {
        guard take(punctuation: punctuation) else { throw error(at: current, expected: expected) }
    }

    mutating func expectEnd(_ expected: String) throws(FetchPredicateError) {
        guard current.kind == .end else { throw error(at: current, expected: expected) }
    }

    func error(at token: PredicateToken, expected: String) -> FetchPredicateError {
        .syntax(column: PredicateLexer.column(ofOffset: token.offset, in: text), expected: expected, found: token.summary)
    }
}

extension FetchPredicate {
    /// Parses a predicate format string (`title BEGINSWITH[c] "a" AND ANY tags.name == $TAG`).
    public init(format: String) throws(FetchPredicateError) {
        var parser = try PredicateParser(format)
        self = try parser.parsePredicate()
    }
}
