import FerryFormats
import FerryTestSupport
import FoundationEssentials
import Testing

/// Gzip and zlib decompression, format sniffing, and the writer.
struct GzipTests {
    /// Everything `source` yields, read `chunk` bytes at a time.
    static func drain(_ source: some ByteSource, chunk: Int = 4096) throws -> [UInt8] {
        var source = source
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
        }
    }

    static let sample: [UInt8] = {
        var text = ""
        for index in 0..<5000 { text += "{\"id\": \(index), \"name\": \"record \(index)\"}\n" }
        return Array(text.utf8)
    }()

    @Test(arguments: [0, 1, 6, 9])
    func roundTrip(level: Int) throws {
        let compressed = try GzipWriter.compress(Self.sample, level: level)
        #expect(compressed.starts(with: [0x1F, 0x8B]))
        if level > 0 { #expect(compressed.count < Self.sample.count / 2) }
        for chunk in [1, 7, 65536] {
            let source = try GzipByteSource(MemoryByteSource(compressed), inputSize: chunk)
            #expect(try Self.drain(source, chunk: chunk) == Self.sample, "chunk \(chunk)")
        }
    }

    @Test func writerStreamsManySmallWrites() throws {
        var compressed: [UInt8] = []
        let writer = try GzipWriter(level: 1, outputSize: 64) { compressed += $0 }
        for start in stride(from: 0, to: Self.sample.count, by: 1000) {
            try writer.write(Array(Self.sample[start..<min(start + 1000, Self.sample.count)]))
        }
        try writer.finish()
        try writer.finish()
        #expect(try Self.drain(GzipByteSource(MemoryByteSource(compressed))) == Self.sample)
    }

    @Test func concatenatedMembersReadAsOneStream() throws {
        let first = Array("first part\n".utf8), second = Array("second part\n".utf8)
        let joined = try GzipWriter.compress(first) + GzipWriter.compress([]) + GzipWriter.compress(second, level: 9)
        #expect(try Self.drain(GzipByteSource(MemoryByteSource(joined)), chunk: 5) == first + second)
    }

    @Test func zlibStreamsAreAccepted() throws {
        // "hello" compressed by zlib.compress (zlib header 78 9C, Adler-32 trailer).
        let zlib: [UInt8] = [0x78, 0x9C, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x06, 0x2C, 0x02, 0x15]
        #expect(try Self.drain(GzipByteSource(MemoryByteSource(zlib))) == Array("hello".utf8))
    }

    @Test func corruptDataReportsSourceAndOffset() throws {
        var compressed = try GzipWriter.compress(Self.sample)
        for index in 100..<120 { compressed[index] ^= 0x5A }
        do {
            _ = try Self.drain(GzipByteSource(MemoryByteSource(compressed, name: "backup.json.gz")))
            Issue.record("corrupt data was accepted")
        } catch let GzipError.corrupt(source, byteOffset, reason) {
            #expect(source == "backup.json.gz")
            #expect((100...compressed.count).contains(byteOffset))
            #expect(!reason.isEmpty)
        }
    }

    @Test func badTrailerChecksumIsCorrupt() throws {
        var compressed = try GzipWriter.compress(Self.sample)
        compressed[compressed.count - 6] ^= 0xFF  // inside the CRC-32
        #expect(throws: GzipError.self) { try Self.drain(GzipByteSource(MemoryByteSource(compressed))) }
    }

    @Test func truncatedDataReportsItsLength() throws {
        let compressed = try GzipWriter.compress(Self.sample)
        let cut = Array(compressed[..<(compressed.count / 2)])
        #expect(throws: GzipError.truncated(source: "cut.gz", byteOffset: cut.count)) {
            try Self.drain(GzipByteSource(MemoryByteSource(cut, name: "cut.gz")))
        }
        #expect(throws: GzipError.truncated(source: "empty.gz", byteOffset: 0)) {
            try Self.drain(GzipByteSource(MemoryByteSource([], name: "empty.gz")))
        }
    }

    @Test func trailingGarbageIsCorrupt() throws {
        let compressed = try GzipWriter.compress(Self.sample) + Array("junk".utf8)
        #expect(throws: GzipError.self) { try Self.drain(GzipByteSource(MemoryByteSource(compressed))) }
    }

    @Test func invalidLevelIsRejected() {
        #expect(throws: GzipError.invalidLevel(10)) { try GzipWriter(level: 10) { _ in } }
    }

    @Test func detectionUsesContentNotExtension() throws {
        let folder = try TestPaths.temporaryFolder("gzip")
        let compressed = try GzipWriter.compress(Self.sample)
        let gzipPath = folder + "/looks-plain.json", plainPath = folder + "/looks-compressed.gz"
        try write(compressed, to: gzipPath)
        try write(Self.sample, to: plainPath)

        let gzip = try GzipDetectingByteSource(path: gzipPath)
        #expect(gzip.isCompressed)
        #expect(try Self.drain(gzip, chunk: 3) == Self.sample)
        let plain = try GzipDetectingByteSource(path: plainPath)
        #expect(!plain.isCompressed)
        #expect(try Self.drain(plain, chunk: 1) == Self.sample)
    }

    @Test(arguments: [[], [0x1F], [0x1F, 0x8C, 0x00]] as [[UInt8]])
    func shortOrNearMagicInputPassesThrough(_ bytes: [UInt8]) throws {
        let source = try GzipDetectingByteSource(MemoryByteSource(bytes))
        #expect(!source.isCompressed)
        #expect(try Self.drain(source) == bytes)
    }

    @Test func compressedNDJSONReadsThroughTheJSONReader() throws {
        let compressed = try GzipWriter.compress(Self.sample)
        var reader = JSONReader(source: try GzipDetectingByteSource(MemoryByteSource(compressed)), bufferSize: 100)
        var ids: [Int64] = []
        while let record = try reader.nextRecord() {
            if case let .number(id)? = record.value["id"], let value = id.int64 { ids.append(value) }
        }
        #expect(ids == Array(0..<5000))
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }
}
