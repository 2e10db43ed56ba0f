import FerryFormats
import FerryModel

/// Turns the elements of a property list into records or rejects, one at a time: its root is an
/// array of dictionaries (or one dictionary). XML streams (memory follows the largest record);
/// binary plists are read whole, as their offset table is at the end. An element that is not a
/// dictionary is a reject. Read through `DocumentRecordReader`.
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
    var matchesAnyKey: Bool { decoder.matchesAnyKey }
    var absentDefaults: [AbsentDefault] { decoder.absentDefaults }

    mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        let record: PlistRecord
        do {
            guard let next = try plist.nextRecord() else { return nil }
            record = next
        } catch let error as PlistRecordError {
            throw RecordSourceError(source: sourceName, line: error.line, reason: error.problem.description)
        } catch {
            throw RecordSourceError(source: sourceName, failure: error, at: sourceName)
        }
        let location = SourceLocation(file: sourceName, line: record.location.line, path: record.location.index.map { "[\($0)]" })
        let value = DocumentValue(record.value)
        // The root dictionary (no index): records are read from a root array of dictionaries.
        if record.location.index == nil, let problem = decoder.containerProblem(
            of: value, remedy: "Ferry reads the records of a property list from a root array of dictionaries; a file of one record holding "
                + "such a key can be written as an array of it") {
            throw RecordSourceError(source: sourceName, line: record.location.line, reason: problem)
        }
        // The parser kept one value of a repeated key: the record is refused, as JSON's is.
        guard record.repeatedKeys.keys.isEmpty else {
            return .reject(RepeatedKeys.reject(keys: record.repeatedKeys.keys, at: location, entity: decoder.schema.entity.name,
                                               container: "dictionary"))
        }
        return try decoder.decodeRecord(value, at: location, container: "a dictionary")
    }
}
