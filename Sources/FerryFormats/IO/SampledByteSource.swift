/// Reads the first bytes of a source ahead, so they can be looked at before anyone reads, and
/// then serves them before the rest: on pipes and standard input as on files.
///
/// The sample is filled by reading until it has `count` bytes or the source ends (a pipe may
/// hand out fewer bytes per read than asked for), so a short ``sample`` means the whole input.
public final class SampledByteSource: ByteSource {
    public var name: String { base.name }
    /// The first bytes of the source: `count` of them, or all when the source is shorter.
    public let sample: [UInt8]
    /// Whether `sample` is the whole input.
    public let sampleIsComplete: Bool

    private var base: any ByteSource
    private var sampleStart = 0

    /// Reads up to `count` bytes of `source` ahead.
    /// - Throws: read errors of `source`.
    public init(_ source: some ByteSource, count: Int) throws {
        var source: any ByteSource = source
        var bytes = [UInt8](repeating: 0, count: max(count, 0))
        var filled = 0
        var ended = false
        while filled < bytes.count {
            let read = try bytes.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...])) }
            if read == 0 {
                ended = true
                break
            }
            filled += read
        }
        bytes.removeSubrange(filled...)
        sample = bytes
        sampleIsComplete = ended
        base = source
    }

    /// The sample is the source's start: its source answers for the whole input.
    public func wholeInputContains(_ byte: UInt8) -> Bool? {
        base.wholeInputContains(byte)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !buffer.isEmpty else { return 0 }
        if sampleStart < sample.count {
            let count = min(buffer.count, sample.count - sampleStart)
            sample.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[sampleStart..<sampleStart + count])) }
            sampleStart += count
            return count
        }
        return try base.read(into: buffer)
    }
}
