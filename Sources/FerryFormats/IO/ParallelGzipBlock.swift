import CZlib

/// One block of a ``ParallelGzipWriter`` stream, compressed on its own as raw deflate.
///
/// Every block but the last ends with a sync flush (an empty stored block), which leaves the
/// output byte-aligned with no final-block bit, so blocks concatenate into one DEFLATE stream.
/// A block may be primed with the end of the input before it: back references into that
/// dictionary stay valid in the concatenated stream because that text precedes the block there.
struct ParallelGzipBlock: Sendable {
    /// The raw deflate bytes of the block.
    let compressed: [UInt8]
    /// CRC-32 of the block's uncompressed bytes.
    let crc: UInt
    /// Number of uncompressed bytes.
    let length: Int

    /// DEFLATE looks back at most 32 KiB, so a longer dictionary would be wasted.
    static let windowSize = 32 * 1024

    /// Compresses `input` at `level`, primed with `dictionary` (the up to 32 KiB of input before
    /// it; empty for the first block), finishing the stream when `isLast`.
    /// - Throws: ``GzipError/zlibFailure(code:)``.
    init(input: [UInt8], dictionary: ArraySlice<UInt8>, level: Int32, isLast: Bool) throws(GzipError) {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        // Negative window bits ask for raw deflate (no zlib or gzip wrapper) with a 32 KiB window.
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw GzipError.zlibFailure(code: status) }
        defer { deflateEnd(stream) }
        try Self.prime(stream, with: dictionary)
        compressed = try Self.deflateAll(input, stream: stream, flush: isLast ? Z_FINISH : Z_SYNC_FLUSH)
        crc = input.withUnsafeBytes { raw in
            crc32(0, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(raw.count))
        }
        length = input.count
    }

    private static func prime(_ stream: UnsafeMutablePointer<z_stream>, with dictionary: ArraySlice<UInt8>) throws(GzipError) {
        guard !dictionary.isEmpty else { return }
        let status = dictionary.withUnsafeBytes { raw in
            deflateSetDictionary(stream, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(raw.count))
        }
        guard status == Z_OK else { throw GzipError.zlibFailure(code: status) }
    }

    /// Runs deflate over all of `input` with `flush`, growing the output until zlib is done.
    private static func deflateAll(
        _ input: [UInt8], stream: UnsafeMutablePointer<z_stream>, flush: Int32
    ) throws(GzipError) -> [UInt8] {
        // deflateBound holds for Z_FINISH; a sync flush adds a few bytes, and the loop grows anyway.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(input.count))) + 16)
        var produced = 0
        let status: Int32 = input.withUnsafeBytes { source in
            // zlib does not write through `next_in`; its C declaration just lacks `const`.
            stream.pointee.next_in = source.baseAddress.map {
                UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: Bytef.self))
            }
            stream.pointee.avail_in = UInt32(source.count)
            while true {
                if produced == output.count { output += repeatElement(0, count: max(output.count / 2, 64)) }
                let status = output.withUnsafeMutableBytes { target in
                    stream.pointee.next_out = target.baseAddress.map { ($0 + produced).assumingMemoryBound(to: Bytef.self) }
                    stream.pointee.avail_out = UInt32(target.count - produced)
                    let status = deflate(stream, flush)
                    produced = target.count - Int(stream.pointee.avail_out)
                    return status
                }
                if status == Z_STREAM_END { return Z_OK }
                guard status == Z_OK else { return status }
                // A sync flush is complete once deflate returns with output room to spare.
                if flush != Z_FINISH && stream.pointee.avail_out > 0 { return Z_OK }
            }
        }
        guard status == Z_OK else { throw GzipError.zlibFailure(code: status) }
        output.removeLast(output.count - produced)
        return output
    }
}
