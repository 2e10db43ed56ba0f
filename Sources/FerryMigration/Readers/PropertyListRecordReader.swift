import FerryFormats
import FerryModel

/// Reads records of one entity from a property list whose root is an array of dictionaries (or
/// one dictionary). XML streams (memory follows the largest record); binary plists are read
/// whole, as their offset table is at the end. An element that is not a dictionary is a reject.
///
/// Records are parsed and decoded on a thread of their own, a few batches ahead of `next()`
/// (see `RecordReadAhead`), in file order. `unknownKeys` is complete once `next()` returned nil.
public struct PropertyListRecordReader: RecordReader, ~Copyable {
    public let sourceName: String
    private var records: RecordReadAhead

    public init(plist: consuming PlistRecordReader, decoder: DocumentRecordDecoder) {
        let documents = PropertyListDocumentRecords(plist: plist, decoder: decoder)
        sourceName = documents.sourceName
        records = RecordReadAhead(documents)
    }

    public var unknownKeys: [String] { records.unknownKeys }

    public mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        try records.next()
    }
}

/// Turns the elements of a property list into records or rejects, one at a time.
struct PropertyListDocumentRecords: RecordReader, ~Copyable {
    let sourceName: String
    private var plist: PlistRecordReader
    private var decoder: DocumentRecordDecoder

    init(plist: consuming PlistRecordReader, decoder: DocumentRecordDecoder) {
        sourceName = plist.sourceName
        self.plist = plist
        self.decoder = decoder
    }

    var unknownKeys: [String] { decoder.unknownKeys }

    mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        let record: PlistRecord
        do {
            guard let next = try plist.nextRecord() else { return nil }
            record = next
        } catch let error as PlistRecordError {
            throw RecordSourceError(source: sourceName, line: error.line, reason: error.problem.description)
        } catch {
            throw RecordSourceError(source: sourceName, reason: "\(error)")
        }
        let location = SourceLocation(file: sourceName, line: record.location.line, path: record.location.index.map { "[\($0)]" })
        return try decoder.decodeRecord(DocumentValue(record.value), at: location, container: "a dictionary")
    }
}
