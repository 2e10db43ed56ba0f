import FerryModel

/// One record of one entity: its values in `RecordSchema` order, where it came from, its identity
/// in its source (for links from other records), and its links to other records.
public struct Record: Sendable, Equatable {
    public var values: [AttributeValue]
    public var location: SourceLocation
    public var key: RecordKey?
    public var links: [RecordLink]

    public init(values: [AttributeValue], location: SourceLocation, key: RecordKey? = nil, links: [RecordLink] = []) {
        self.values = values
        self.location = location
        self.key = key
        self.links = links
    }
}
