import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// The parallel gzip writer: valid single-member output for every size, level and thread count,
/// byte-identical output whatever the thread count, streaming input, and error propagation.
struct ParallelGzipWriterTests {
    /// Small blocks make multi-block streams cheap to test.
    static let blockSize = 16 * 1024

    /// Compresses `bytes` with the parallel writer, writing `piece` bytes at a time.
    static func compress(
        _ bytes: [UInt8], level: Int = 6, threads: Int, blockSize: Int = blockSize, piece: Int = 64 * 1024
    ) throws -> [UInt8] {
        var compressed: [UInt8] = []
        let writer = try ParallelGzipWriter(level: level, threads: threads, blockSize: blockSize) { compressed += $0 }
        var start = 0
        while start < bytes.count {
            try writer.write(Array(bytes[start..<min(start + piece, bytes.count)]))
            start += piece
        }
        try writer.finish()
        return compressed
    }

    /// Text with repeats (so priming matters) followed by random bytes (so blocks grow).
    static func mixed(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        var record = 0
        while bytes.count < count / 2 {
            record += 1
            bytes += Array("{\"id\":\(record),\"name\":\"record \(record % 977)\",\"ok\":\(record % 3 == 0)}\n".utf8)
        }
        while bytes.count < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes.append(UInt8(truncatingIfNeeded: state))
        }
        return Array(bytes.prefix(count))
    }

    static let gzipPath = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let gzipAvailable = gzipPath != nil

    /// Decompresses with the `gzip` command-line tool, which must exit with status 0.
    static func gunzipWithCLI(_ compressed: [UInt8]) throws -> [UInt8] {
        let folder = try TestPaths.temporaryFolder("parallel-gzip")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(compressed).write(to: URL(fileURLWithPath: folder + "/data.gz"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(gzipPath))
        process.arguments = ["-d", folder + "/data.gz"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try TestPaths.read(folder + "/data")
    }

    static let sizes = [0, 1, blockSize - 1, blockSize, blockSize + 1, 5 * blockSize + 123]

    @Test(arguments: sizes, [0, 1, 6, 9])
    func roundTripsAndIgnoresThreadCount(size: Int, level: Int) throws {
        let input = Self.mixed(count: size)
        let reference = try Self.compress(input, level: level, threads: 1)
        #expect(reference.starts(with: [0x1F, 0x8B, 8, 0]))
        #expect(try GzipTests.drain(GzipByteSource(MemoryByteSource(reference)), chunk: 1000) == input)
        for threads in [2, 4] {
            #expect(try Self.compress(input, level: level, threads: threads) == reference, "threads \(threads)")
        }
    }

    @Test(.enabled(if: gzipAvailable), arguments: sizes, [1, 6, 9])
    func gzipCommandReadsTheOutput(size: Int, level: Int) throws {
        let input = Self.mixed(count: size)
        #expect(try Self.gunzipWithCLI(Self.compress(input, level: level, threads: 2)) == input)
    }

    @Test(arguments: [1, 6, 9])
    func tenMegabytesRoundTripWithDefaultBlocks(level: Int) throws {
        let input = Self.mixed(count: 10 * 1024 * 1024)
        let block = ParallelGzipWriter.defaultBlockSize
        let reference = try Self.compress(input, level: level, threads: 1, blockSize: block)
        #expect(reference.count < input.count * 3 / 4)
        #expect(try GzipTests.drain(GzipByteSource(MemoryByteSource(reference)), chunk: 1 << 16) == input)
        for threads in [2, 4] {
            let compressed = try Self.compress(input, level: level, threads: threads, blockSize: block)
            #expect(compressed == reference, "threads \(threads)")
        }
        if Self.gzipAvailable { #expect(try Self.gunzipWithCLI(reference) == input) }
    }

    @Test func trailerHoldsCRCAndLength() throws {
        let input = Array("hello, world\n".utf8)
        let compressed = try Self.compress(input, threads: 2)
        // CRC-32 of "hello, world\n" is 0xF4247453; both fields are little-endian.
        #expect(Array(compressed.suffix(8)) == [0x53, 0x74, 0x24, 0xF4, 13, 0, 0, 0])
    }

    @Test(arguments: [1, 2])
    func manyTinyWritesMatchOneWrite(threads: Int) throws {
        let input = Self.mixed(count: 3 * 1000 + 17)
        var compressed: [UInt8] = []
        let writer = try ParallelGzipWriter(level: 6, threads: threads, blockSize: 1000) { compressed += $0 }
        var start = 0, piece = 1
        while start < input.count {
            let end = min(start + piece, input.count)
            try writer.write(Array(input[start..<end]))
            start = end
            piece = piece % 7 + 1
        }
        try writer.write([])
        try writer.finish()
        #expect(compressed == (try Self.compress(input, threads: 1, blockSize: 1000)))
        #expect(try GzipTests.drain(GzipByteSource(MemoryByteSource(compressed))) == input)
    }

    struct SinkFull: Error, Equatable {}

    @Test(arguments: [1, 2])
    func sinkErrorPropagatesAndIsRethrown(threads: Int) throws {
        var calls = 0
        let writer = try ParallelGzipWriter(level: 1, threads: threads, blockSize: 1000) { _ in
            calls += 1
            if calls == 3 { throw SinkFull() }
        }
        let input = Self.mixed(count: 20_000)
        var firstError: (any Error)?
        do {
            for start in stride(from: 0, to: input.count, by: 500) { try writer.write(Array(input[start..<start + 500])) }
            try writer.finish()
        } catch {
            firstError = error
        }
        #expect(firstError is SinkFull)
        #expect(calls == 3)
        #expect(throws: SinkFull.self) { try writer.finish() }
        #expect(throws: SinkFull.self) { try writer.write([1, 2, 3]) }
        #expect(calls == 3)
    }

    /// Each worker compressed on a libdispatch queue, which retried forever a thread the system
    /// could not make (`ulimit -v`): the export hung. Workers now start their own threads and,
    /// without one, compress on the writer's thread.
    @Test("without threads the blocks are compressed on the writer's thread, byte for byte as with them",
          .timeLimit(.minutes(1)))
    func refusedThreads() throws {
        let bytes = Self.mixed(count: 9 * Self.blockSize + 77)
        let threaded = try Self.compress(bytes, threads: 2)
        let refused = try WorkerThread.refusingThreads { () throws in try Self.compress(bytes, threads: 2) }
        #expect(refused == threaded)
        #expect(refused == (try Self.compress(bytes, threads: 1)))
    }

    @Test func invalidSettingsAreRejected() {
        #expect(throws: GzipError.invalidLevel(10)) { try ParallelGzipWriter(level: 10) { _ in } }
        #expect(throws: ParallelGzipError.invalidThreadCount(0)) { try ParallelGzipWriter(threads: 0) { _ in } }
        #expect(throws: ParallelGzipError.invalidBlockSize(0)) { try ParallelGzipWriter(blockSize: 0) { _ in } }
    }

    @Test func writeAfterFinishIsAnErrorAndFinishIsIdempotent() throws {
        var compressed: [UInt8] = []
        let writer = try ParallelGzipWriter(threads: 2) { compressed += $0 }
        try writer.write([1, 2, 3])
        try writer.finish()
        let length = compressed.count
        try writer.finish()
        #expect(compressed.count == length)
        #expect(throws: ParallelGzipError.writeAfterFinish) { try writer.write([4]) }
        #expect(try GzipTests.drain(GzipByteSource(MemoryByteSource(compressed))) == [1, 2, 3])
    }
}
