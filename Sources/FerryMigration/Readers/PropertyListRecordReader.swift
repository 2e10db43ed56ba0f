import FerryFormats
import FerryModel

/// Reads records of one entity from a property list whose root is an array of dictionaries (or
/// one dictionary). XML streams (memory follows the largest record); binary plists are read
/// whole, as their offset table is at the end. An element that is not a dictionary is a reject.
public struct PropertyListRecordReader: RecordReader, ~Copyable {
    public let sourceName: String
    private var plist: PlistRecordReader
    private var decoder: DocumentRecordDecoder

    public init(plist: consuming PlistRecordReader, decoder: DocumentRecordDecoder) {
        sourceName = plist.sourceName
        self.plist = plist
        self.decoder = decoder
    }

    public var unknownKeys: [String] { decoder.unknownKeys }

    public mutating func next() throws(RecordSourceError) -> RecordReadResult? {
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
