import FerryFormats
import FoundationEssentials

/// Streams rejects to a file as NDJSON: one JSON object per line with location, entity,
/// attribute, value and reason.
public struct RejectLog {
    /// The log could not be written.
    public struct Failure: Error {
        public let path: String
        public let reason: String
        /// A full disk or the file size limit; the partial log is then removed (when it is a
        /// regular file: never a device such as `/dev/full`).
        public var writeFailure: WriteFailure?

        init(path: String, error: any Error) {
            self.path = path
            reason = ErrorText.reason(of: error, at: path)
            writeFailure = WriteFailure.of(error)
            if writeFailure != nil { FilePath.removeRegularFile(path) }
        }
    }

    private let sink: FileByteSink
    private let encoder: JSONEncoder

    public init(path: String) throws(Failure) {
        do { sink = try FileByteSink(path: path) } catch { throw Failure(path: path, error: error) }
        encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    }

    public func append(_ reject: Reject) throws(Failure) {
        do {
            try sink.write(try encoder.encode(reject))
            try sink.write(CollectionOfOne(UInt8(ascii: "\n")))
        } catch {
            throw Failure(path: sink.path, error: error)
        }
    }

    public func close() throws(Failure) {
        do { try sink.close() } catch { throw Failure(path: sink.path, error: error) }
    }
}
