import FerryFormats

/// Writes predicate format text (the subset `ArchivedPredicateFormat` prints: comparisons, AND, OR,
/// NOT, key paths, `$VARIABLE` paths, `name:(…)` functions, string and number constants) as
/// archived `NSPredicate`/`NSExpression` objects (modelcache-format.md §4.9).
enum PredicateFormatWriter {
    /// Archives a predicate and returns its reference.
    static func predicate(_ text: String, into builder: inout KeyedArchiveBuilder, path: String) throws(ModelArchiveError) -> PropertyListValue {
        var parser = Parser(text: text, path: path)
        let syntax = try parser.predicate()
        try parser.expectEnd()
        return write(syntax, into: &builder)
    }

    /// Archives an expression (a derivation expression) and returns its reference.
    static func expression(_ text: String, into builder: inout KeyedArchiveBuilder, path: String) throws(ModelArchiveError) -> PropertyListValue {
        var parser = Parser(text: text, path: path)
        let syntax = try parser.expression()
        try parser.expectEnd()
        return write(syntax, into: &builder)
    }

    indirect enum Syntax {
        case constantTrue, constantFalse
        case compound(type: Int, parts: [Syntax])
        case comparison(left: Syntax, op: Int, options: Int, right: Syntax)
        case selfValue
        case keyPath(String)
        case variable(String, path: String?)
        case function(String, arguments: [Syntax])
        case string(String)
        case number(PropertyListValue)
        case null
    }

    static let operators: [String: Int] = [
        "<": 0, "<=": 1, ">": 2, ">=": 3, "==": 4, "=": 4, "!=": 5, "MATCHES": 6, "LIKE": 7, "BEGINSWITH": 8,
        "ENDSWITH": 9, "IN": 10, "CONTAINS": 99, "BETWEEN": 100,
    ]

    private static func write(_ syntax: Syntax, into builder: inout KeyedArchiveBuilder) -> PropertyListValue {
        func specifier(_ path: String, _ builder: inout KeyedArchiveBuilder) -> PropertyListValue {
            let spec = builder.add("NSKeyPathSpecifierExpression", ["NSExpressionType": .integer(10), "NSKeyPath": builder.string(path)])
            return builder.collection([spec], className: "NSMutableArray")
        }
        switch syntax {
        case .constantTrue: return builder.add("NSTruePredicate", [:])
        case .constantFalse: return builder.add("NSFalsePredicate", [:])
        case .compound(let type, let parts):
            let members = parts.map { write($0, into: &builder) }
            return builder.add("NSCompoundPredicate", ["NSCompoundPredicateType": .integer(Int128(type)),
                                                       "NSSubpredicates": builder.collection(members)])
        case .comparison(let left, let op, let options, let right):
            let className: String, extra: [String: PropertyListValue]
            switch op {
            case 4, 5: (className, extra) = ("NSEqualityPredicateOperator", ["NSNegate": .bool(op == 5), "NSOptions": .integer(Int128(options))])
            // NSVariant repeats the operator type: 1 for <=, 3 for >= in every archive of the corpus.
            case 0...3: (className, extra) = ("NSComparisonPredicateOperator", ["NSVariant": .integer(Int128(op)), "NSOptions": .integer(Int128(options))])
            default: (className, extra) = ("NSInPredicateOperator", ["NSFlags": .integer(Int128(options))])
            }
            var opFields = extra
            opFields["NSOperatorType"] = .integer(Int128(op))
            opFields["NSModifier"] = .integer(0)
            let opValue = builder.add(className, opFields)
            let leftValue = write(left, into: &builder), rightValue = write(right, into: &builder)
            return builder.add("NSComparisonPredicate", ["NSLeftExpression": leftValue, "NSRightExpression": rightValue,
                                                         "NSPredicateOperator": opValue])
        case .selfValue: return builder.add("NSSelfExpression", ["NSExpressionType": .integer(1)])
        case .keyPath(let path):
            let operand = builder.add("NSSelfExpression", ["NSExpressionType": .integer(1)])
            return builder.add("NSKeyPathExpression", [
                "NSExpressionType": .integer(3), "NSOperand": operand,
                "NSSelectorName": builder.string(path.contains(".") ? "valueForKeyPath:" : "valueForKey:"),
                "NSArguments": specifier(path, &builder),
            ])
        case .variable(let name, let path):
            let variable = builder.add("NSVariableExpression", ["NSExpressionType": .integer(2), "NSVariable": builder.string(name)])
            guard let path else { return variable }
            return builder.add("NSKeyPathExpression", [
                "NSExpressionType": .integer(4), "NSOperand": variable, "NSSelectorName": builder.string("valueForKeyPath:"),
                "NSArguments": specifier(path, &builder),
            ])
        case .function(let selector, let arguments):
            let operand = builder.add("NSConstantValueExpression", [
                "NSExpressionType": .integer(0), "NSConstantValueClassName": builder.string("_NSPredicateUtilities"),
            ])
            let members = arguments.map { write($0, into: &builder) }
            return builder.add("NSFunctionExpression", [
                "NSExpressionType": .integer(4), "NSOperand": operand, "NSSelectorName": builder.string(selector),
                "NSArguments": builder.collection(members),
            ])
        case .string(let text):
            return builder.add("NSConstantValueExpression", ["NSExpressionType": .integer(0), "NSConstantValue": builder.string(text)])
        case .number(let value):
            return builder.add("NSConstantValueExpression", ["NSExpressionType": .integer(0), "NSConstantValue": builder.scalar(value)])
        case .null:
            return builder.add("NSConstantValueExpression", ["NSExpressionType": .integer(0), "NSConstantValue": KeyedArchiveBuilder.null])
        }
    }

    /// A recursive-descent parser over the text's Unicode scalars.
    struct Parser {
        let scalars: [Unicode.Scalar]
        let path: String
        var position = 0

        init(text: String, path: String) {
            scalars = Array(text.unicodeScalars)
            self.path = path
        }

        mutating func predicate() throws(ModelArchiveError) -> Syntax { try connective("OR", type: 2) }

        private mutating func connective(_ word: String, type: Int) throws(ModelArchiveError) -> Syntax {
            var parts = [word == "OR" ? try connective("AND", type: 1) : try unary()]
            while consumeWord(word) { parts.append(word == "OR" ? try connective("AND", type: 1) : try unary()) }
            return parts.count == 1 ? parts[0] : .compound(type: type, parts: parts)
        }

        private mutating func unary() throws(ModelArchiveError) -> Syntax {
            if consumeWord("NOT") { return .compound(type: 0, parts: [try unary()]) }
            if consumeWord("TRUEPREDICATE") { return .constantTrue }
            if consumeWord("FALSEPREDICATE") { return .constantFalse }
            if consume("(") {
                let inner = try predicate()
                guard consume(")") else { throw failure("expected ')'") }
                return inner
            }
            let left = try expression()
            skipSpaces()
            let start = position
            while position < scalars.count, "<>=!".unicodeScalars.contains(scalars[position]) || scalars[position].properties.isAlphabetic {
                position += 1
            }
            let symbol = String(String.UnicodeScalarView(scalars[start..<position]))
            guard let op = PredicateFormatWriter.operators[symbol] else { throw failure("unknown operator '\(symbol)'") }
            var options = 0
            if consume("[") {
                while position < scalars.count, scalars[position] != "]" {
                    options |= scalars[position] == "c" ? 1 : scalars[position] == "d" ? 2 : 0
                    position += 1
                }
                guard consume("]") else { throw failure("expected ']'") }
            }
            return .comparison(left: left, op: op, options: options, right: try expression())
        }

        mutating func expression() throws(ModelArchiveError) -> Syntax {
            skipSpaces()
            guard position < scalars.count else { throw failure("expected an expression") }
            let first = scalars[position]
            if first == "\"" || first == "'" { return .string(try quoted(first)) }
            if first == "$" {
                position += 1
                let name = identifier()
                guard !name.isEmpty else { throw failure("expected a variable name") }
                guard let dot = name.firstIndex(of: ".") else { return .variable(name, path: nil) }
                return .variable(String(name[..<dot]), path: String(name[name.index(after: dot)...]))
            }
            if first == "-" || first.properties.numericType != nil {
                let start = position
                position += 1
                while position < scalars.count, scalars[position].properties.numericType != nil || scalars[position] == "." { position += 1 }
                let text = String(String.UnicodeScalarView(scalars[start..<position]))
                if let integer = Int128(text) { return .number(.integer(integer)) }
                guard let real = Double(text) else { throw failure("bad number '\(text)'") }
                return .number(.real(real))
            }
            let name = identifier()
            guard !name.isEmpty else { throw failure("expected an expression") }
            if name == "SELF" { return .selfValue }
            if name == "nil" { return .null }
            if consume(":") {
                guard consume("(") else { throw failure("expected '(' after '\(name):'") }
                var arguments: [Syntax] = []
                if !consume(")") {
                    repeat { arguments.append(try expression()) } while consume(",")
                    guard consume(")") else { throw failure("expected ')'") }
                }
                return .function(name + ":", arguments: arguments)
            }
            return .keyPath(name)
        }

        mutating func expectEnd() throws(ModelArchiveError) {
            skipSpaces()
            guard position == scalars.count else { throw failure("unexpected text") }
        }

        private mutating func identifier() -> String {
            let start = position
            while position < scalars.count, scalars[position].properties.isAlphabetic || scalars[position].properties.numericType != nil
                || "_.@".unicodeScalars.contains(scalars[position]) {
                position += 1
            }
            return String(String.UnicodeScalarView(scalars[start..<position]))
        }

        private mutating func quoted(_ quote: Unicode.Scalar) throws(ModelArchiveError) -> String {
            position += 1
            var text = String.UnicodeScalarView()
            while position < scalars.count, scalars[position] != quote {
                if scalars[position] == "\\", position + 1 < scalars.count { position += 1 }
                text.append(scalars[position])
                position += 1
            }
            guard position < scalars.count else { throw failure("unterminated string") }
            position += 1
            return String(text)
        }

        private mutating func skipSpaces() {
            while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
        }

        private mutating func consume(_ symbol: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard position < scalars.count, scalars[position] == symbol else { return false }
            position += 1
            return true
        }

        /// Consumes a keyword (case-insensitive) followed by a non-identifier character.
        private mutating func consumeWord(_ word: String) -> Bool {
            skipSpaces()
            let letters = Array(word.unicodeScalars)
            guard position + letters.count <= scalars.count else { return false }
            for (offset, letter) in letters.enumerated() where scalars[position + offset].properties.uppercaseMapping != String(letter) {
                return false
            }
            let end = position + letters.count
            if end < scalars.count, scalars[end].properties.isAlphabetic || scalars[end] == "_" { return false }
            position = end
            return true
        }

        private func failure(_ reason: String) -> ModelArchiveError {
            .unencodable(reason: "predicate format: \(reason) at character \(position)", path: path)
        }
    }
}
