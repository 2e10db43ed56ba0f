import CZlib

/// Decompresses a gzip or zlib stream as it is read.
///
/// zlib detects the format from the header (`inflateInit2` with window bits 15 + 32). Gzip files
/// made of several members one after another (as `cat a.gz b.gz` or parallel compressors produce)
/// read as the concatenation of their contents. Bytes after the last member must form another
/// valid member: trailing garbage is ``GzipError/corrupt(source:byteOffset:reason:)``, and input
/// that stops inside a member is ``GzipError/truncated(source:byteOffset:)``, as is empty input.
public final class GzipByteSource: ByteSource {
    public var name: String { base.name }

    private var base: any ByteSource
    /// zlib keeps a pointer back to its stream, so the stream must not move: it lives on the heap.
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    /// Bytes of `base` before `input[0]`, and how many of `input` are filled.
    private var inputOffset = 0
    private var inputFilled = 0
    private var baseEnded = false
    /// The current member ended; more input starts another member (or ends the stream).
    private var memberEnded = false
    private var finished = false

    /// Wraps `base`, which yields compressed bytes `inputSize` at a time.
    /// - Throws: ``GzipError/zlibFailure(code:)`` when zlib cannot start.
    public init(_ base: some ByteSource, inputSize: Int = 64 * 1024) throws {
        self.base = base
        input = .allocate(byteCount: max(inputSize, 1), alignment: 16)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw GzipError.zlibFailure(code: status)
        }
        pointStreamAtInput()
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// Inflates into `buffer` until at least one byte is produced or the stream ends.
    /// - Throws: base source errors and ``GzipError``.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self), !buffer.isEmpty else { return 0 }
        while !finished {
            if stream.pointee.avail_in == 0 {
                try refillInput()
                if inputFilled == 0 {
                    if memberEnded { finished = true; break }
                    throw GzipError.truncated(source: name, byteOffset: inputOffset)
                }
            }
            if memberEnded {
                inflateReset(stream)
                memberEnded = false
            }
            stream.pointee.next_out = out
            stream.pointee.avail_out = UInt32(clamping: buffer.count)
            let status = inflate(stream, Z_NO_FLUSH)
            let produced = Int(UInt32(clamping: buffer.count) - stream.pointee.avail_out)
            switch status {
            case Z_STREAM_END:
                memberEnded = true
            case Z_OK, Z_BUF_ERROR:
                break
            case Z_NEED_DICT:
                throw GzipError.corrupt(source: name, byteOffset: consumedOffset, reason: "needs a preset dictionary")
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
                throw GzipError.corrupt(source: name, byteOffset: consumedOffset, reason: reason)
            }
            if produced > 0 { return produced }
        }
        return 0
    }

    /// Offset in `base` of the next compressed byte zlib has not consumed.
    private var consumedOffset: Int {
        inputOffset + inputFilled - Int(stream.pointee.avail_in)
    }

    /// Replaces the (fully consumed) input with the next chunk of `base`; empty at its end.
    private func refillInput() throws {
        inputOffset += inputFilled
        inputFilled = baseEnded ? 0 : try base.read(into: input)
        if inputFilled == 0 { baseEnded = true }
        pointStreamAtInput()
    }

    private func pointStreamAtInput() {
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(inputFilled)
    }
}
