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

    /// The sweep removed anything in the temporary folder named `ferry-*.tmp`: a user's folder or
    /// file there too, with everything in it.
    @Test("making one leaves alone what merely looks like a scratch folder: another name, a file of a scratch folder's name")
    func sweepLeavesLookalikesAlone() throws {
        let id = UUID().uuidString
        let folders = [temporary + "/ferry-notes-\(id.lowercased()).tmp", temporary + "/ferry-\(id).tmp", temporary + "/ferry-test-\(id)-old.tmp"]
        let file = temporary + "/ferry-test-\(id).tmp"
        for folder in folders {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            try Data("mine".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        }
        try Data("mine".utf8).write(to: URL(fileURLWithPath: file))
        defer { for path in folders + [file] { try? FileManager.default.removeItem(atPath: path) } }
        let scratch = try ScratchFolder.make(purpose: "test")
        scratch.remove()
        #expect(folders.allSatisfy { FileManager.default.fileExists(atPath: $0 + "/notes.txt") })
        #expect(FileManager.default.fileExists(atPath: file))
    }
}
