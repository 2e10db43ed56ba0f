import FerryFormats
import FerryModel

/// Turns the records of a JSON reader into records or rejects, one at a time: a top-level array
/// of objects, a single object, records under a key, or NDJSON (one object per line). Streams:
/// memory follows the largest record, not the file. Read through `DocumentRecordReader`.
struct JSONDocumentRecords: RecordReader, ~Copyable {
    let sourceName: String
    private var json: JSONReader
    private var decoder: DocumentRecordDecoder

    init(json: consuming JSONReader, decoder: DocumentRecordDecoder) {
        sourceName = json.sourceName
        self.json = json
        self.decoder = decoder
    }

    var unknownKeys: [String] { decoder.unknownKeys }
    var matchesAnyKey: Bool { decoder.matchesAnyKey }
    var absentDefaults: [AbsentDefault] { decoder.absentDefaults }

    mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        do {
            guard try json.nextFields() else { return nil }
        } catch let error as JSONError {
            // A record with a value past the limit, or a malformed NDJSON line, is one bad record;
            // other malformed JSON breaks the document.
            guard (try? json.skipFailedRecord()) == true else { throw RecordSourceError(source: sourceName, failure: error, at: sourceName) }
            return .reject(Reject(location: SourceLocation(file: sourceName, line: error.position.line,
                                                           path: json.lastRecordIndex.map { "[\($0)]" }),
                                  entity: decoder.schema.entity.name, reason: error.recordProblem))
        } catch {
            throw RecordSourceError(source: sourceName, failure: error, at: sourceName)
        }
        let fields = json.fields
        let location = SourceLocation(file: sourceName, line: fields.location.line, path: fields.location.index.map { "[\($0)]" })
        guard json.isSingleValue else { return try decoder.decodeFields(fields, at: location) }
        let value = DocumentValue(fields)
        if let problem = decoder.containerProblem(
            of: value, remedy: "to read them as the records, give --records-key with that key; a file of one record holding such a key can be "
                + "written as an array of it, [{…}]") {
            throw RecordSourceError(source: sourceName, line: fields.location.line, reason: problem)
        }
        return try decoder.decodeRecord(value, at: location, container: "a JSON object")
    }
}
