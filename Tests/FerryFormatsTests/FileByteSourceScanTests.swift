import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// `ByteSource.wholeInputContains`: the streaming XML plist reader escapes carriage returns
/// only in a file that holds one, and reads the rest as it is.
@Suite("a regular file scanned for a byte")
struct FileByteSourceScanTests {
    @Test("a byte is found anywhere in the file, past the first chunk too, and the reading position stays")
    func scan() throws {
        let folder = try TestPaths.temporaryFolder("byte-scan")
        let path = folder + "/data"
        var bytes = [UInt8](repeating: 0x41, count: (1 << 20) + 10)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let source = try FileByteSource(path: path)
        var first = [UInt8](repeating: 0, count: 4)
        #expect(try first.withUnsafeMutableBytes { try source.read(into: $0) } == 4)
        #expect(source.wholeInputContains(0x0D) == false)
        bytes[(1 << 20) + 5] = 0x0D
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try FileByteSource(path: path).wholeInputContains(0x0D) == true)
        // The first source reads on where it was.
        var next = [UInt8](repeating: 0, count: 4)
        #expect(try next.withUnsafeMutableBytes { try source.read(into: $0) } == 4 && next == [0x41, 0x41, 0x41, 0x41])
    }

    @Test("a pipe cannot be scanned (it cannot be read twice)")
    func pipe() throws {
        var ends: [Int32] = [0, 0]
        #expect(Foundation.pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let path = "/proc/self/fd/\(ends[0])"
        #expect(try FileByteSource(path: path).wholeInputContains(0x0D) == nil)
    }

    @Test("a sampled file answers for the whole file, its sample included; bytes in memory cannot tell")
    func sampled() throws {
        let folder = try TestPaths.temporaryFolder("byte-scan-sample")
        try Data([0x0D, 0x41, 0x41]).write(to: URL(fileURLWithPath: folder + "/data"))
        let sampled = try SampledByteSource(FileByteSource(path: folder + "/data"), count: 2)
        #expect(sampled.wholeInputContains(0x0D) == true)
        #expect(MemoryByteSource([0x0D]).wholeInputContains(0x0D) == nil)
        #expect(try GzipDetectingByteSource(path: folder + "/data").wholeInputContains(0x0D) == true)
    }
}
