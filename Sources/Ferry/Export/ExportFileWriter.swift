import FerryFormats
import FerryModel

/// Writes one export file: bytes go through gzip when asked, then to the file, and the SHA-256
/// and size of what reaches the file are kept for the manifest.
final class ExportFileWriter {
    let path: String
    private let file: FileByteSink
    private var compressor: GzipWriter?
    private var digest = SHA256()
    private(set) var byteCount = 0

    /// - Parameter gzipLevel: nil writes plain bytes.
    init(path: String, gzipLevel: Int?) throws(ExportError) {
        self.path = path
        do { file = try FileByteSink(path: path) } catch { throw .cannotWrite(path: path, reason: error.description) }
        guard let gzipLevel else { return }
        do {
            compressor = try Self.makeCompressor(level: gzipLevel) { [unowned self] chunk in try self.store(chunk) }
        } catch {
            throw .invalidRequest("gzip level \(gzipLevel): \(error)")
        }
    }

    /// The one place that picks the gzip implementation (swap in a parallel writer here).
    private static func makeCompressor(level: Int, sink: @escaping GzipWriter.Sink) throws -> GzipWriter {
        try GzipWriter(level: level, outputSize: 256 * 1024, sink: sink)
    }

    func write(_ bytes: [UInt8]) throws(ExportError) {
        do {
            if let compressor {
                try compressor.write(bytes)
            } else {
                digest.update(bytes)
                byteCount += bytes.count
                try file.write(bytes)
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
    }

    /// Completes the file; returns its SHA-256 as lowercase hex.
    func finish() throws(ExportError) -> String {
        do {
            try compressor?.finish()
            try file.close(sync: true)
        } catch {
            throw .cannotWrite(path: path, reason: "\(error)")
        }
        let final = digest
        return Hex.string(final.finalize())
    }

    private func store(_ bytes: UnsafeRawBufferPointer) throws {
        digest.update(bytes)
        byteCount += bytes.count
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
