import CZlib

/// Compresses bytes into a single gzip member and hands the compressed output to a sink.
///
/// Call ``write(_:)-(UnsafeRawBufferPointer)`` as often as needed, then ``finish()`` once; output
/// written before `finish()` is not a complete gzip file.
public final class GzipWriter {
    /// Receives each chunk of compressed output; the bytes are valid only during the call.
    public typealias Sink = (UnsafeRawBufferPointer) throws -> Void

    private let sink: Sink
    /// Heap-allocated because zlib keeps a pointer back to its stream.
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer
    private var finished = false

    /// Starts a gzip member compressed at `level` (0 stores, 1 is fastest, 9 is smallest).
    /// - Throws: ``GzipError/invalidLevel(_:)`` or ``GzipError/zlibFailure(code:)``.
    public init(level: Int = 6, outputSize: Int = 64 * 1024, sink: @escaping Sink) throws {
        guard (0...9).contains(level) else { throw GzipError.invalidLevel(level) }
        self.sink = sink
        output = .allocate(byteCount: max(outputSize, 64), alignment: 16)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Window bits 15 + 16 ask zlib for a gzip header and trailer; memory level 8 is zlib's default.
        let status = deflateInit2_(
            stream, Int32(level), Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            output.deallocate()
            throw GzipError.zlibFailure(code: status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Compresses `bytes`, passing any full output chunks to the sink.
    /// - Throws: whatever the sink throws.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return }
        // zlib does not write through `next_in`; its C declaration just lacks `const`.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        try run(flush: Z_NO_FLUSH)
    }

    /// Compresses `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Completes the gzip member and flushes everything to the sink; later calls do nothing.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try run(flush: Z_FINISH)
    }

    /// Compresses `bytes` in memory into one complete gzip file.
    public static func compress(_ bytes: [UInt8], level: Int = 6) throws -> [UInt8] {
        var compressed: [UInt8] = []
        let writer = try GzipWriter(level: level) { compressed.append(contentsOf: $0) }
        try writer.write(bytes)
        try writer.finish()
        return compressed
    }

    /// Deflates the pending input; with `Z_FINISH`, until the member is complete.
    private func run(flush: Int32) throws {
        guard let out = output.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return }
        while true {
            stream.pointee.next_out = out
            stream.pointee.avail_out = UInt32(output.count)
            let status = deflate(stream, flush)
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 { try sink(UnsafeRawBufferPointer(rebasing: output[..<produced])) }
            if status == Z_STREAM_END { return }
            guard status == Z_OK || status == Z_BUF_ERROR else { throw GzipError.zlibFailure(code: status) }
            // Without Z_FINISH, deflate is done when it has taken all input and left output room.
            if flush != Z_FINISH && stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return }
        }
    }
}
