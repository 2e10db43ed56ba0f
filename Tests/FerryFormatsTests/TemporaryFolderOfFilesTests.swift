@testable import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// A restore writes one file per value a store keeps outside its rows, thousands perhaps, beside
/// the store it builds; registering each for a signal's cleanup filled the 512 slots of
/// `TemporaryFiles` (a SIGTERM at the 705th of 1,200 files left 203 behind, and every temporary
/// registered later in the run lost its cleanup). The folder is registered once, as a folder of
/// files, and the handler empties it by listing it (`emptyFolder`, without allocating).
@Suite("a signal's cleanup empties a folder of files by listing it")
struct TemporaryFolderOfFilesTests {
    #if os(Linux)
    static let isLinux = true
    #else
    static let isLinux = false
    #endif

    @Test("its files and links go (a link's target stays), a folder in it stays; a link to a folder is not followed",
          .enabled(if: Self.isLinux, "getdents64 is Linux's: elsewhere the folder is left to the next run's sweep"))
    func emptiesByListing() throws {
        let root = try TestPaths.temporaryFolder("folder-of-files")
        let folder = root + "/_EXTERNAL_DATA", outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: folder + "/kept", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        // More names than one read of the folder returns.
        for index in 0..<600 { try Data([UInt8(index % 256)]).write(to: URL(fileURLWithPath: folder + "/F\(index)-3F2504E0-4F89-11D3-9A0C-0305E82C3301")) }
        try Data([1]).write(to: URL(fileURLWithPath: outside + "/target"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: outside + "/target")
        try FileManager.default.createSymbolicLink(atPath: root + "/linked", withDestinationPath: outside)

        TemporaryFiles.emptyFolder(root + "/linked")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["target"])
        TemporaryFiles.emptyFolder(folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["kept"])
        #expect(FileManager.default.fileExists(atPath: outside + "/target"))
    }
}
