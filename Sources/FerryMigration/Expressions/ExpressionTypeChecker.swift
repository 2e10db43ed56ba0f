import FerryModel

/// What the type checker knows about the value of a part of an expression.
enum StaticType: Equatable {
    case integer, double, decimal, string, bool, date, binary, uuid, uri
    /// Always nil (the `nil` literal).
    case null
    /// Not known before evaluation.
    case unknown

    init(_ type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64: self = .integer
        case .double, .float: self = .double
        case .decimal: self = .decimal
        case .string: self = .string
        case .boolean: self = .bool
        case .date: self = .date
        case .binary, .transformable: self = .binary
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .undefined, .objectID, .composite: self = .unknown
        }
    }

    var attributeType: AttributeType? {
        switch self {
        case .integer: .integer64
        case .double: .double
        case .decimal: .decimal
        case .string: .string
        case .bool: .boolean
        case .date: .date
        case .binary: .binary
        case .uuid: .uuid
        case .uri: .uri
        case .null, .unknown: nil
        }
    }

    var isNumber: Bool { [.integer, .double, .decimal].contains(self) }
    /// Nil or unknown: could be anything at run time, so no check can fail on it.
    var isOpen: Bool { self == .null || self == .unknown }

    var name: String { attributeType.map { $0 == .integer64 ? "an Integer" : $0.withArticle } ?? "nil" }

    /// The type of a value that is one of the two.
    func unified(with other: StaticType) -> StaticType {
        if self == other || other == .null { return self }
        return self == .null ? other : .unknown
    }
}

/// Best-effort static checking of an expression against the types of the source attributes:
/// it finds unknown attributes and operations that would fail for every record. The rules mirror
/// `ExpressionEvaluator`, `ExpressionArithmetic` and `ExpressionValues`.
struct ExpressionTypeChecker {
    let attributes: [String: AttributeType]
    let line: Int
    /// Whether `$`, the current part, may be used (in the arguments of `Entity(…) for $ in split(…)`).
    var allowsPart = false

    func type(of node: ExpressionNode) throws(ExpressionTypeError) -> StaticType {
        switch node.kind {
        case let .literal(literal):
            switch literal {
            case .integer: return .integer
            case .decimal: return .decimal
            case .string: return .string
            case .bool: return .bool
            case .null: return .null
            }
        case let .attribute(name):
            guard let type = attributes[name] else { throw error(at: node, unknownAttribute(name)) }
            return StaticType(type)
        case .variable:
            return .string
        case .part:
            guard allowsPart else {
                throw error(at: node, "'$' (the current part) is allowed only in the arguments of Entity(…) for $ in split(TEXT, \"SEPARATOR\"); a run-time variable is $NAME")
            }
            return .string
        case let .negate(operand):
            return try expect(operand, in: node, "a number") { $0.isNumber }
        case let .not(operand):
            _ = try expect(operand, in: node, "a condition") { $0 == .bool }
            return .bool
        case let .binary(op, left, right):
            switch op {
            case .and, .or:
                for operand in [left, right] { _ = try expect(operand, in: node, "conditions") { $0 == .bool } }
                return .bool
            case .add, .subtract, .multiply, .divide:
                return try arithmetic(op, try type(of: left), try type(of: right), node)
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
                try comparable(left, right, ordered: op != .equal && op != .notEqual, node)
                return .bool
            }
        case let .conditional(value, condition, otherwise):
            _ = try expect(condition, in: node, "a condition") { $0 == .bool }
            return try type(of: value).unified(with: type(of: otherwise))
        case let .between(operand, low, high):
            try comparable(operand, low, ordered: true, node)
            try comparable(operand, high, ordered: true, node)
            return .bool
        case let .membership(operand, list):
            for element in list { try comparable(operand, element, ordered: false, node) }
            return .bool
        case let .call(function, arguments):
            return try call(function, arguments, node)
        case let .formattedDate(text, format, _, zone):
            for argument in [text, format] + (zone.map { [$0] } ?? []) { _ = try expect(argument, in: node, "text") { $0 == .string } }
            return .date
        case let .lookup(key, table, otherwise):
            let keyType = try type(of: key)
            let keyTypes = try table.map { (entry) throws(ExpressionTypeError) in
                try type(of: ExpressionNode(kind: .literal(entry.key), column: key.column))
            }
            guard keyTypes.isEmpty || keyTypes.contains(where: { Self.comparable(keyType, $0, ordered: false) }) else {
                throw error(at: key, "\(node): no key of the table can match \(keyType.name)")
            }
            var result = StaticType.null
            for entry in table { result = result.unified(with: try type(of: entry.value)) }
            return try otherwise.map { (otherwise) throws(ExpressionTypeError) in result.unified(with: try type(of: otherwise)) } ?? result
        }
    }

    private func call(_ function: ExpressionFunction, _ arguments: [ExpressionNode], _ node: ExpressionNode) throws(ExpressionTypeError) -> StaticType {
        let convertible: (StaticType) -> Bool = { $0.isNumber || $0 == .string || $0 == .bool }
        switch function {
        case .integer, .double, .decimal, .bool:
            _ = try expect(arguments[0], in: node, "a number, text or a boolean", convertible)
            return [.integer: .integer, .double: .double, .decimal: .decimal, .bool: .bool][function] ?? .unknown
        case .text:
            _ = try type(of: arguments[0])
            return .string
        case .round, .floor, .ceil:
            _ = try expect(arguments[0], in: node, "a number") { $0.isNumber }
            return .integer
        case .trim, .lower, .upper, .length, .replace:
            for argument in arguments { _ = try expect(argument, in: node, "text") { $0 == .string } }
            return function == .length ? .integer : .string
        case .prefix, .suffix, .substring:
            _ = try expect(arguments[0], in: node, "text") { $0 == .string }
            for argument in arguments.dropFirst() { _ = try expect(argument, in: node, "an integer") { $0 == .integer } }
            return .string
        case .coalesce:
            var result = StaticType.null
            for argument in arguments { result = result.unified(with: try type(of: argument)) }
            return result
        case .isnil:
            _ = try type(of: arguments[0])
            return .bool
        case .date:
            _ = try expect(arguments[0], in: node, "text, a number or a date") { $0.isNumber || $0 == .string || $0 == .date }
            return .date
        case .unixtime, .epoch2001:
            _ = try expect(arguments[0], in: node, "a number") { $0.isNumber || $0 == .string }
            return .date
        case .uuid, .lookup:
            for argument in arguments { _ = try type(of: argument) }
            return function == .uuid ? .uuid : .unknown
        }
    }

    private func arithmetic(_ op: ExpressionOperator, _ a: StaticType, _ b: StaticType, _ node: ExpressionNode) throws(ExpressionTypeError) -> StaticType {
        if a == .null || b == .null { return .null }
        if op == .add, a == .string || b == .string { return .string }
        switch (a, b) {
        case (.date, .date) where op == .subtract: return .double
        case (.date, _) where (op == .add || op == .subtract) && (b.isNumber || b == .unknown): return .date
        case (_, .date) where op == .add && (a.isNumber || a == .unknown): return .date
        case (.unknown, _), (_, .unknown): return .unknown
        case (.integer, .integer): return op == .divide ? .decimal : .integer
        case _ where a.isNumber && b.isNumber: return a == .double || b == .double ? .double : .decimal
        default: throw error(at: node, "\(node): cannot apply '\(op.rawValue)' to \(a.name) and \(b.name)")
        }
    }

    private func comparable(_ left: ExpressionNode, _ right: ExpressionNode, ordered: Bool, _ node: ExpressionNode) throws(ExpressionTypeError) {
        let (a, b) = (try type(of: left), try type(of: right))
        guard Self.comparable(a, b, ordered: ordered) else { throw error(at: node, "\(node): cannot compare \(a.name) with \(b.name)") }
    }

    /// Whether values of these types can be compared (`ordered`: with `<` and friends, not only `==`).
    private static func comparable(_ a: StaticType, _ b: StaticType, ordered: Bool) -> Bool {
        let text: Set<StaticType> = [.string, .uri]
        return a.isOpen || b.isOpen || (a.isNumber && b.isNumber) || (text.contains(a) && text.contains(b))
            || (a == b && (a == .date || !ordered))
    }

    /// The operand's type, or an error when it can never be what `node` needs.
    private func expect(_ operand: ExpressionNode, in node: ExpressionNode, _ expectation: String,
                        _ accepts: (StaticType) -> Bool) throws(ExpressionTypeError) -> StaticType {
        let type = try type(of: operand)
        guard type.isOpen || accepts(type) else {
            throw error(at: operand, "\(node) needs \(expectation), but \(operand) is \(type.name)")
        }
        return type
    }

    private func unknownAttribute(_ name: String) -> String {
        let closest = attributes.keys.sorted {
            let (left, right) = (Self.distance(name, $0), Self.distance(name, $1))
            return left == right ? $0 < $1 : left < right
        }
        guard !closest.isEmpty else { return "unknown attribute '\(name)' (the source has no attributes)" }
        return "unknown attribute '\(name)' (closest: \(closest.prefix(5).joined(separator: ", ")))"
    }

    /// Edit distance between two names, ignoring case.
    private static func distance(_ a: String, _ b: String) -> Int {
        let (x, y) = (Array(a.lowercased()), Array(b.lowercased()))
        var previous = Array(0...y.count)
        for i in 1...max(x.count, 1) where !x.isEmpty {
            var current = [i] + Array(repeating: 0, count: y.count)
            for j in stride(from: 1, through: y.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count]
    }

    private func error(at node: ExpressionNode, _ message: String) -> ExpressionTypeError {
        ExpressionTypeError(line: line, column: node.column, message: message)
    }
}
