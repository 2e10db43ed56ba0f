import FerryModel

/// How values read in failure messages, and how they compare.
enum ExpressionValues {
    /// The value with its type, as failure reasons name it: `string "n/a"`, `integer 12`, `nil`.
    static func describe(_ value: AttributeValue) -> String {
        switch value {
        case .null: "nil"
        case let .integer(number): "integer \(number)"
        case let .double(number): "double \(number)"
        case let .decimal(text): "decimal \(text)"
        case let .string(text): "string \(ExpressionLiteral.string(TextCoercion.clipped(text)))"
        case let .bool(flag): flag ? "true" : "false"
        case let .date(seconds): "date \(CivilTime.iso8601(referenceSeconds: seconds))"
        case let .binary(bytes): "binary data (\(bytes.count) bytes)"
        case let .uuid(uuid): "uuid \(uuid)"
        case let .uri(text): "uri \(TextCoercion.clipped(text))"
        }
    }

    /// Whether two values are equal under `==`: numbers across types, text with text (strings and
    /// URIs), and otherwise values of the same type; nil equals only nil.
    static func equal(_ lhs: AttributeValue, _ rhs: AttributeValue) throws(ExpressionFailure) -> Bool {
        if lhs == .null || rhs == .null { return lhs == rhs }
        switch (lhs, rhs) {
        case let (.bool(left), .bool(right)): return left == right
        case let (.uuid(left), .uuid(right)): return left == right
        case let (.binary(left), .binary(right)): return left == right
        default: return try order(lhs, rhs) == 0
        }
    }

    /// -1, 0 or 1 for numbers, texts and dates; a failure for other pairs. Neither side is nil.
    /// Texts compare by their UTF-8 bytes (Unicode scalar order), as SQLite, a `where` filter and
    /// `unique` do: "é" as one scalar and as "e" with a combining accent are two texts. (Swift's
    /// `==` took them for one, so `==`, `in` and `lookup` disagreed with `where` on the same text.)
    static func order(_ lhs: AttributeValue, _ rhs: AttributeValue) throws(ExpressionFailure) -> Int {
        if let left = try ExpressionNumber(lhs), let right = try ExpressionNumber(rhs) {
            return left.order(right)
        }
        switch (lhs, rhs) {
        case let (.string(left), .string(right)), let (.uri(left), .uri(right)),
             let (.string(left), .uri(right)), let (.uri(left), .string(right)):
            if left.utf8.elementsEqual(right.utf8) { return 0 }
            return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
        case let (.date(left), .date(right)):
            return left == right ? 0 : (left < right ? -1 : 1)
        default:
            throw ExpressionFailure("cannot compare \(describe(lhs)) with \(describe(rhs))")
        }
    }

    /// Whether a value matches a `lookup()` key (or two keys match alike): equal under `==`;
    /// values of kinds that cannot be compared do not match.
    static func sameKey(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        (try? equal(lhs, rhs)) ?? false
    }
}

/// A numeric value in the form arithmetic needs.
enum ExpressionNumber {
    case integer(Int64)
    case decimal(ExactDecimal)
    case double(Double)

    /// The number a value holds, nil for values that are not numbers, or a failure for decimal
    /// text that is not a number.
    init?(_ value: AttributeValue) throws(ExpressionFailure) {
        switch value {
        case let .integer(number): self = .integer(number)
        case let .double(number): self = .double(number)
        case let .decimal(text):
            guard let decimal = ExactDecimal(text) else { throw ExpressionFailure("decimal value '\(TextCoercion.clipped(text))' is not a number") }
            self = .decimal(decimal)
        default: return nil
        }
    }

    var exact: ExactDecimal? {
        switch self {
        case let .integer(number): ExactDecimal(number)
        case let .decimal(decimal): decimal
        case .double: nil
        }
    }

    var doubleValue: Double {
        switch self {
        case let .integer(number): Double(number)
        case let .decimal(decimal): decimal.doubleValue
        case let .double(number): number
        }
    }

    var value: AttributeValue {
        switch self {
        case let .integer(number): .integer(number)
        case let .decimal(decimal): .decimal(decimal.text)
        case let .double(number): .double(number)
        }
    }

    /// Integers compare as integers, integers and decimals exactly, anything with a double as doubles.
    func order(_ other: ExpressionNumber) -> Int {
        if case let (.integer(left), .integer(right)) = (self, other) { return left == right ? 0 : (left < right ? -1 : 1) }
        if let left = exact, let right = other.exact { return left == right ? 0 : (left < right ? -1 : 1) }
        let (left, right) = (doubleValue, other.doubleValue)
        return left == right ? 0 : (left < right ? -1 : 1)
    }
}
