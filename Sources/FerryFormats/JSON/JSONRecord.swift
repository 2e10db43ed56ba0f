/// One record read from a JSON input, with where it starts.
public struct JSONRecord: Sendable, Equatable {
    public let value: JSONValue
    public let location: JSONRecordLocation
}

/// Where a record starts: the position of its first byte and, for records streamed from an
/// array, its index in that array.
public struct JSONRecordLocation: Sendable, Equatable, CustomStringConvertible {
    public let position: JSONPosition
    /// The 0-based index in the records array; `nil` for ``JSONRecordLayout/single`` and
    /// ``JSONRecordLayout/lines`` records (their line identifies them).
    public let index: Int?

    public var line: Int { position.line }
    public var byteOffset: Int { position.byteOffset }

    /// `source:line:column`, followed by ` [index]` for array elements.
    public var description: String {
        index.map { "\(position) [\($0)]" } ?? position.description
    }
}
