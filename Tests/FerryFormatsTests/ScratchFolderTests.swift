import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// Private folders in the temporary directory: owned like every temporary, removed with what is
/// in them, and what a dead run left is swept by the next one.
struct ScratchFolderTests {
    private let temporary = FileManager.default.temporaryDirectory.path

    @Test("a scratch folder is named for its purpose, registers its files, and is removed with everything in it")
    func lifecycle() throws {
        let scratch = try ScratchFolder.make(purpose: "test")
        let name = URL(fileURLWithPath: scratch.path).lastPathComponent
        #expect(name.hasPrefix("ferry-test-") && name.hasSuffix(".tmp"), "\(name)")
        #expect(TemporaryFiles.isRegistered(scratch.path))
        let database = scratch.database("store.sqlite")
        #expect(TemporaryFiles.isRegistered(database) && TemporaryFiles.isRegistered(database + "-wal"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: database))
        try Data("y".utf8).write(to: URL(fileURLWithPath: scratch.path + "/unregistered"))
        scratch.remove()
        #expect(!FileManager.default.fileExists(atPath: scratch.path))
        #expect(!TemporaryFiles.isRegistered(scratch.path) && !TemporaryFiles.isRegistered(database))
    }

    @Test("making one sweeps the scratch folders of dead runs and leaves a live run's alone")
    func sweepsDeadRuns() throws {
        let dead = temporary + "/ferry-test-\(UUID().uuidString).tmp"
        let live = temporary + "/ferry-test-\(UUID().uuidString).tmp"
        for folder in [dead, live] {
            try FileManager.default.createDirectory(atPath: folder + "/inner", withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/inner/store.sqlite"))
        }
        // Another run's lock: a different open file description conflicts even within this process.
        let held = open(live, O_RDONLY | O_DIRECTORY)
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        defer {
            close(held)
            try? FileManager.default.removeItem(atPath: live)
        }
        let scratch = try ScratchFolder.make(purpose: "test")
        defer { scratch.remove() }
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live + "/inner/store.sqlite"))
    }
}
