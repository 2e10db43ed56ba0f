import FerryFormats
import FerryModel
import Synchronization

/// Writes one export file: bytes go through gzip when asked, then to the file, and the SHA-256
/// and size of what reaches the file are kept for the manifest.
///
/// Compressing, hashing and writing run on a thread of their own (`SerialWorker`), so they use
/// the second core while the caller encodes the next records (on the caller, chunk by chunk,
/// when the system cannot make a thread); at most `inFlight` chunks wait, which bounds memory.
/// A failure (a full disk, EFBIG past a size limit) is thrown by the next `write` or by `finish`.
final class ExportFileWriter: @unchecked Sendable {
    // `file`, `compressor`, `digest` and `storedBytes` are touched only by `worker`'s pieces, or
    // after `worker` has run them all; that is what makes the unchecked Sendable sound.
    let path: String
    private let durable: Bool
    /// Whether chunks hold `DeferredBase64` spans, expanded into `expanded` before the rest.
    private let expandsBase64: Bool
    private var expanded: [UInt8] = []
    private let file: FileByteSink
    private var compressor: ParallelGzipWriter?
    private var digest = SHA256()
    private var storedBytes = 0
    private let worker = SerialWorker<ExportError>(capacity: ExportFileWriter.inFlight)
    /// Buffers already written, kept for `emptyBuffer` so that chunks reuse their memory
    /// instead of allocating (and faulting in) a fresh one each time.
    private let spare = Mutex<[[UInt8]]>([])
    private static let inFlight = 4

    /// - Parameters:
    ///   - gzipLevel: nil writes plain bytes.
    ///   - durable: sync the file to disk when finishing.
    ///   - expandsBase64: the chunks hold `DeferredBase64` spans.
    init(path: String, gzipLevel: Int?, durable: Bool, expandsBase64: Bool = false) throws(ExportError) {
        self.path = path
        self.durable = durable
        self.expandsBase64 = expandsBase64
        do { file = try FileByteSink(path: path, exclusive: true) } catch { throw .writing(path, error) }
        guard let gzipLevel else { return }
        do {
            compressor = try Self.makeCompressor(level: gzipLevel) { [unowned self] chunk in try self.store(chunk) }
        } catch {
            throw .invalidRequest("gzip level \(gzipLevel): \(error)")
        }
    }

    /// The one place that picks the gzip implementation: independent deflate blocks on both
    /// cores, in one valid gzip stream.
    private static func makeCompressor(level: Int, sink: @escaping ParallelGzipWriter.Sink) throws -> ParallelGzipWriter {
        try ParallelGzipWriter(level: level, threads: 2, sink: sink)
    }

    /// Bytes of the file as written so far (complete after `finish`).
    var byteCount: Int {
        worker.waitUntilIdle()
        return storedBytes
    }

    /// Hands `bytes` to the writing thread. Pass the only copy (and take the next buffer from
    /// `emptyBuffer`), so that its memory can be reused once written.
    func write(_ bytes: [UInt8]) throws(ExportError) {
        try worker.submit { () throws(ExportError) in
            try self.consume(bytes)
            self.spare.withLock { $0.append(bytes) }
        }
    }

    /// An empty buffer with room for `capacity` bytes: one already written if there is one.
    func emptyBuffer(capacity: Int) -> [UInt8] {
        var buffer = spare.withLock { $0.popLast() } ?? []
        buffer.removeAll(keepingCapacity: true)
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Completes the file; returns its SHA-256 as lowercase hex.
    func finish() throws(ExportError) -> String {
        try worker.drain()
        do {
            try compressor?.finish()
            try file.close(sync: durable)
        } catch {
            throw .writing(path, error)
        }
        let final = digest
        return Hex.string(final.finalize())
    }

    private func consume(_ chunk: [UInt8]) throws(ExportError) {
        guard expandsBase64 else { return try pass(chunk) }
        DeferredBase64.expand(chunk, into: &expanded)
        try pass(expanded)
    }

    /// Compresses (when asked), hashes and writes bytes of the file.
    private func pass(_ bytes: [UInt8]) throws(ExportError) {
        do {
            if let compressor {
                try compressor.write(bytes)
            } else {
                try bytes.withUnsafeBytes { raw in try store(raw) }
            }
        } catch {
            throw .writing(path, error)
        }
    }

    private func store(_ bytes: UnsafeRawBufferPointer) throws {
        digest.update(bytes)
        storedBytes += bytes.count
        try file.write(bytes)
    }
}

/// Lowercase hexadecimal text of bytes.
enum Hex {
    static func string(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
