import FerryFormats
import FerryMigration
import FoundationEssentials

/// Streams rejects to a file as NDJSON: one JSON object per line with location, entity,
/// attribute, value and reason.
struct RejectLog {
    private let sink: FileByteSink
    private let encoder: JSONEncoder

    init(path: String) throws(ImportError) {
        do { sink = try FileByteSink(path: path) } catch { throw .rejectLog(path: path, reason: error.description) }
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func append(_ reject: Reject) throws(ImportError) {
        do {
            try sink.write(try encoder.encode(reject))
            try sink.write(CollectionOfOne(UInt8(ascii: "\n")))
        } catch let error as ByteSinkError {
            throw .rejectLog(path: sink.path, reason: error.description)
        } catch {
            throw .rejectLog(path: sink.path, reason: "\(error)")
        }
    }

    func close() throws(ImportError) {
        do { try sink.close() } catch { throw .rejectLog(path: sink.path, reason: error.description) }
    }
}
