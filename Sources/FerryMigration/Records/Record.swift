import FerryModel

/// One record of one entity: its values in `RecordSchema` order, and where it came from.
public struct Record: Sendable, Equatable {
    public var values: [AttributeValue]
    public var location: SourceLocation

    public init(values: [AttributeValue], location: SourceLocation) {
        self.values = values
        self.location = location
    }
}
