/// Why an expression gave no value for one record: a type error, unparseable text, an overflow,
/// an unknown attribute or variable, a division by zero. The reason names the offending value.
public struct ExpressionFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
