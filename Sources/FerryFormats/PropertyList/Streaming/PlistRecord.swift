/// One record read from a property list by ``PlistRecordReader``, with where it is.
public struct PlistRecord: Sendable, Equatable {
    /// The element as decoded; not necessarily a dictionary (see ``PlistRecordReader``).
    public let value: PropertyListValue
    public let location: PlistRecordLocation
    /// Keys its dictionaries held more than once (the last value is the one in `value`).
    public var repeatedKeys = RepeatedPropertyListKeys()
}

/// Where a record is: the source, the line its element starts on (XML only) and its index in the
/// root array.
public struct PlistRecordLocation: Sendable, Equatable, CustomStringConvertible {
    /// The source name: a path, `<stdin>`, `<memory>`.
    public let source: String
    /// The 1-based line of the element's start tag; `nil` for binary property lists, which have no
    /// lines.
    public let line: Int?
    /// The 0-based index in the root array; `nil` when the root is not an array and is itself the
    /// one record.
    public let index: Int?

    public init(source: String, line: Int?, index: Int?) {
        self.source = source
        self.line = line
        self.index = index
    }

    /// `source:line [index]`, leaving out what is unknown.
    public var description: String {
        let place = line.map { "\(source):\($0)" } ?? source
        return index.map { "\(place) [\($0)]" } ?? place
    }
}
