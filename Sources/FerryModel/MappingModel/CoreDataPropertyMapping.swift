/// How one destination property gets its value (`NSPropertyMapping`): an expression over
/// `$source` and `$manager`, or nil for the destination's default (no relationship for a
/// relationship mapping).
public struct CoreDataPropertyMapping: Sendable, Equatable {
    /// `NSDestinationPropertyName`.
    public var name: String
    /// `NSValueExpression`.
    public var valueExpression: ArchivedExpression?

    public init(name: String, valueExpression: ArchivedExpression?) {
        self.name = name
        self.valueExpression = valueExpression
    }
}
