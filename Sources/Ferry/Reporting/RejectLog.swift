import FerryFormats
import FerryMigration
import FoundationEssentials

/// Streams rejects to a file as NDJSON: one JSON object per line with location, entity,
/// attribute, value and reason.
struct RejectLog {
    /// The log could not be written.
    struct Failure: Error {
        let path: String
        let reason: String
    }

    private let sink: FileByteSink
    private let encoder: JSONEncoder

    init(path: String) throws(Failure) {
        do { sink = try FileByteSink(path: path) } catch { throw Failure(path: path, reason: ErrorText.reason(of: error, at: path)) }
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    func append(_ reject: Reject) throws(Failure) {
        do {
            try sink.write(try encoder.encode(reject))
            try sink.write(CollectionOfOne(UInt8(ascii: "\n")))
        } catch let error as ByteSinkError {
            throw Failure(path: sink.path, reason: ErrorText.reason(of: error, at: sink.path))
        } catch {
            throw Failure(path: sink.path, reason: ErrorText.reason(of: error, at: sink.path))
        }
    }

    func close() throws(Failure) {
        do { try sink.close() } catch { throw Failure(path: sink.path, reason: ErrorText.reason(of: error, at: sink.path)) }
    }
}
