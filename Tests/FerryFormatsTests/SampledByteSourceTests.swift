import FerryFormats
import Testing

/// Reading a source's first bytes ahead, as pipes hand them out: a few at a time.
struct SampledByteSourceTests {
    /// Hands out at most `step` bytes per read, as a pipe may.
    struct TrickleSource: ByteSource {
        var name: String { "<trickle>" }
        var bytes: [UInt8]
        var step: Int
        var offset = 0

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            let count = min(step, buffer.count, bytes.count - offset)
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }
    }

    @Test("the sample is filled across short reads, then served again before the rest", arguments: [1, 2, 5, 100])
    func shortReads(step: Int) throws {
        let bytes = Array("bplist00 and what follows it".utf8)
        let source = try SampledByteSource(TrickleSource(bytes: bytes, step: step), count: 8)
        #expect(source.sample == Array("bplist00".utf8))
        #expect(!source.sampleIsComplete)
        #expect(try GzipTests.drain(source, chunk: 3) == bytes)
    }

    @Test("a source shorter than the sample is whole in it; an empty one is an empty sample")
    func shortSource() throws {
        let short = try SampledByteSource(TrickleSource(bytes: Array("[1]".utf8), step: 1), count: 64)
        #expect(short.sample == Array("[1]".utf8) && short.sampleIsComplete)
        #expect(try GzipTests.drain(short) == Array("[1]".utf8))
        let empty = try SampledByteSource(MemoryByteSource([]), count: 64)
        #expect(empty.sample.isEmpty && empty.sampleIsComplete)
        #expect(try GzipTests.drain(empty).isEmpty)
    }

    @Test("gzip is detected from two bytes that come one read at a time")
    func gzipProbeAcrossReads() throws {
        let compressed = try GzipWriter.compress(GzipTests.sample)
        let source = try GzipDetectingByteSource(TrickleSource(bytes: compressed, step: 1))
        #expect(source.isCompressed)
        #expect(try GzipTests.drain(source) == GzipTests.sample)
        let plain = try GzipDetectingByteSource(TrickleSource(bytes: Array("\u{1F}x".utf8), step: 1))
        #expect(!plain.isCompressed)
        #expect(try GzipTests.drain(plain) == Array("\u{1F}x".utf8))
    }
}
