import FerryFormats
import FerryModel

/// Reads records of one entity from JSON: a top-level array of objects, a single object,
/// records under a key, or NDJSON (one object per line). Streams: memory follows the largest
/// record, not the file.
public struct JSONRecordReader: RecordReader, ~Copyable {
    public let sourceName: String
    private var json: JSONReader
    private var decoder: DocumentRecordDecoder

    public init(json: consuming JSONReader, decoder: DocumentRecordDecoder) {
        sourceName = json.sourceName
        self.json = json
        self.decoder = decoder
    }

    public var unknownKeys: [String] { decoder.unknownKeys }

    public mutating func next() throws(RecordSourceError) -> RecordReadResult? {
        let record: JSONRecord
        do {
            guard let next = try json.nextRecord() else { return nil }
            record = next
        } catch let error as JSONError {
            // A malformed NDJSON line is one bad record; in any other layout the document is broken.
            guard (try? json.skipMalformedLine()) == true else { throw RecordSourceError(source: sourceName, reason: "\(error)") }
            let position = error.position
            return .reject(Reject(location: SourceLocation(file: sourceName, line: position.line),
                                  entity: decoder.schema.entity.name, reason: "not valid JSON: \(error)"))
        } catch {
            throw RecordSourceError(source: sourceName, reason: "\(error)")
        }
        let location = SourceLocation(file: sourceName, line: record.location.line,
                                      path: record.location.index.map { "[\($0)]" })
        return try decoder.decodeRecord(DocumentValue(record.value), at: location, container: "a JSON object")
    }
}
