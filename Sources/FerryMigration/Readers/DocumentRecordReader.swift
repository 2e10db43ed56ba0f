import FerryFormats

/// Reads records of one entity from a JSON document (a top-level array of objects, a single
/// object, records under a key, or NDJSON) or a property list (an array of dictionaries, or one
/// dictionary), decoding each with a `DocumentRecordDecoder`. Streams: memory follows the largest
/// record (a binary plist is read whole).
///
/// Records are parsed and decoded on a thread of their own, a few batches ahead of `next()`
/// (see `RecordReadAhead`), in file order. `unknownKeys` and `absentDefaults` are complete once
/// `next()` returned nil.
public struct DocumentRecordReader: RecordReader, ~Copyable {
    public let sourceName: String
    private var records: RecordReadAhead

    /// Records of a JSON or NDJSON document.
    public init(json: consuming JSONReader, decoder: DocumentRecordDecoder) {
        sourceName = json.sourceName
        records = RecordReadAhead(JSONDocumentRecords(json: json, decoder: decoder))
    }

    /// Records of an XML or binary property list.
    public init(plist: consuming PlistRecordReader, decoder: DocumentRecordDecoder) {
        sourceName = plist.sourceName
        records = RecordReadAhead(PropertyListDocumentRecords(plist: plist, decoder: decoder))
    }

    public var unknownKeys: [String] { records.unknownKeys }
    public var matchesAnyKey: Bool { records.matchesAnyKey }
    public var absentDefaults: [AbsentDefault] { records.absentDefaults }

    public mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        try records.next()
    }

    public mutating func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool {
        try records.withNext(body)
    }
}
