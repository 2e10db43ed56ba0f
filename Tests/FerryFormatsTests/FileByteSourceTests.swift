import FerryFormats
import FerryTestSupport
import Foundation
import Testing

@Suite("reading files")
struct FileByteSourceTests {
    @Test("a source of a regular file only: a symbolic link is not followed, a FIFO is closed again without blocking")
    func regularFilesOnly() throws {
        let folder = try TestPaths.temporaryFolder("regular-files")
        let file = folder + "/value"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: file))
        var buffer = [UInt8](repeating: 0, count: 8)
        let source = try FileByteSource(regularFileAt: file)
        #expect(try buffer.withUnsafeMutableBytes { try source.read(into: $0) } == 3 && buffer.prefix(3) == [1, 2, 3])

        let link = folder + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        #expect(throws: ByteSourceError.openFailed(path: link, code: ELOOP)) { try FileByteSource(regularFileAt: link) }
        #expect(throws: Never.self) { try FileByteSource(path: link) }

        let fifo = folder + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ByteSourceError.openFailed(path: fifo, code: EINVAL)) { try FileByteSource(regularFileAt: fifo) }
        #expect(throws: ByteSourceError.openFailed(path: folder, code: EINVAL)) { try FileByteSource(regularFileAt: folder) }
    }

    @Test("a regular file truncated between two reads is changedWhileRead at its end; standard input is not stamped")
    func changedBetweenReads() throws {
        let folder = try TestPaths.temporaryFolder("changed-between-reads")
        let file = folder + "/value"
        try Data(repeating: 7, count: 16).write(to: URL(fileURLWithPath: file))
        var buffer = [UInt8](repeating: 0, count: 8)
        let source = try FileByteSource(path: file)
        #expect(source.openingStamp != nil)
        #expect(try FileByteSource(path: "-").openingStamp == nil)
        #expect(try buffer.withUnsafeMutableBytes { try source.read(into: $0) } == 8)
        try #require(truncate(file, 8) == 0)
        #expect(throws: ByteSourceError.changedWhileRead(path: file)) { try buffer.withUnsafeMutableBytes { try source.read(into: $0) } }

        let whole = try FileByteSource(path: file)
        #expect(try buffer.withUnsafeMutableBytes { try whole.read(into: $0) } == 8)
        #expect(try buffer.withUnsafeMutableBytes { try whole.read(into: $0) } == 0)
    }
}
