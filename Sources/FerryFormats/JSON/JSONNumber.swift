/// A JSON number, kept as the exact text of its literal.
///
/// Nothing is rounded when reading: integers beyond `Int64`, long decimals and huge exponents keep
/// their digits, and conversion happens only when asked. Equality compares the text, so `1`,
/// `1.0` and `1e0` are different numbers here.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal as written in the input, for example `-12`, `0.5` or `1E+400`.
    public let text: String
    /// Whether the literal has neither a fraction nor an exponent.
    public let isInteger: Bool

    /// A number whose `text` the parser has already checked against the JSON number grammar.
    init(validatedText text: String, isInteger: Bool) {
        self.text = text
        self.isInteger = isInteger
    }

    /// The number with the given integer value.
    public init(_ value: Int64) {
        self.init(validatedText: String(value), isInteger: true)
    }

    /// The value as an `Int64`; `nil` unless the literal is an integer (no fraction or exponent)
    /// within `Int64.min...Int64.max`. `1.0` and `1e2` are `nil`: ask ``double`` for those.
    public var int64: Int64? {
        isInteger ? Int64(text) : nil
    }

    /// The nearest `Double`; `nil` when the magnitude is too large for a `Double` (for example
    /// `1e400`). Values too small to represent become zero, as IEEE 754 rounding does.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    public var description: String { text }
}
