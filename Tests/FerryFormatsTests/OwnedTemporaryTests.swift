import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// Files built aside a destination: owned through a lock, swept only when their owner is dead,
/// renamed without replacing, and written-through links refused.
struct OwnedTemporaryTests {
    /// Creates a file holding `text`.
    private func plant(_ path: String, _ text: String = "x") throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// An exclusive flock on `path`, held until the returned descriptor is closed (as another
    /// process's run would hold it: a different open file conflicts even within this process).
    private func holdLock(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_RDONLY)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        return descriptor
    }

    @Test("a sweep removes a dead run's file with its journals and an orphan journal; a locked one stays")
    func sweepLeavesLiveRunsAlone() throws {
        let folder = try TestPaths.temporaryFolder("owned")
        let store = folder + "/Out.sqlite"
        let dead = store + ".ferry-11111111-1111-4111-8111-111111111111.tmp"
        let live = store + ".ferry-22222222-2222-4222-8222-222222222222.tmp"
        let orphan = store + ".ferry-33333333-3333-4333-8333-333333333333.tmp-wal"
        for path in [dead, dead + "-journal", live, live + "-journal", orphan, store, folder + "/Other.sqlite.ferry-x.tmp"] {
            try plant(path)
        }
        let held = try holdLock(live)
        defer { close(held) }
        let removed = OwnedTemporary.sweep(beside: store, kind: .file)
        #expect(Set(removed) == [dead, orphan])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(left == ["Other.sqlite.ferry-x.tmp", "Out.sqlite", "Out.sqlite.ferry-22222222-2222-4222-8222-222222222222.tmp",
                         "Out.sqlite.ferry-22222222-2222-4222-8222-222222222222.tmp-journal"])
    }

    /// A killed `generate --out` or `mapping convert --out` left its file beside the destination,
    /// and nothing removed it.
    @Test("a whole-file write removes what a killed run left beside its destination, and nothing else")
    func wholeFileWriteSweepsItsLeftovers() throws {
        let folder = try TestPaths.temporaryFolder("owned-whole-file")
        let output = folder + "/out.csv"
        let dead = output + ".ferry-11111111-1111-4111-8111-111111111111.tmp"
        try plant(dead)
        try plant(output + ".ferry-notes.tmp")
        try WholeFileOutput.write(to: output, replacing: false) { try $0.write(Array("a,b\n".utf8)) }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == ["out.csv", "out.csv.ferry-notes.tmp"])
    }

    /// A sweep removed every name that began as a run's does (`Out.sqlite.ferry-…`), a user's
    /// file or folder included, recursively.
    @Test("a sweep removes only names of the exact form a run makes (a UUID as Ferry writes it), of the kind it makes, never a link")
    func sweepLeavesLookalikesAlone() throws {
        let folder = try TestPaths.temporaryFolder("owned-lookalike")
        let store = folder + "/Out.sqlite"
        let made = store + ".ferry-11111111-1111-4111-8111-111111111111.tmp"
        let lookalikes = [store + ".ferry-notes.tmp", store + ".ferry-11111111-1111-4111-8111-11111111111a.tmp",
                          made + ".old", store + ".ferry-11111111-1111-4111-8111-111111111111-2.tmp"]
        for path in lookalikes + [folder + "/kept"] { try plant(path) }
        let link = store + ".ferry-33333333-3333-4333-8333-333333333333.tmp"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder + "/kept")
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: false)
        try plant(made + "/inside")
        #expect(OwnedTemporary.sweep(beside: store, kind: .file).isEmpty, "a folder is no file a run of this kind makes")
        #expect(OwnedTemporary.sweep(beside: store, kind: .folder) == [made])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(Set(left) == Set((lookalikes + [link, folder + "/kept"]).map { URL(fileURLWithPath: $0).lastPathComponent }))
        #expect(TemporaryName(prefix: "x-", suffix: ".tmp").matches("x-" + FilePath.randomUUIDString() + ".tmp"))
    }

    @Test("a destination whose name has the most bytes a file system allows gets a temporary name that fits, journal included, which a sweep knows")
    func longDestinationNames() throws {
        let folder = try TestPaths.temporaryFolder("owned-long")
        // 255 bytes, two-byte characters: the name is cut at a character's boundary.
        let destination = folder + "/" + String(repeating: "é", count: 127) + "x"
        try plant(destination)
        let owned = try OwnedTemporary.create(beside: destination, kind: .file)
        let name = String(owned.path.dropFirst(folder.count + 1))
        #expect(name.utf8.count + "-journal".utf8.count <= TemporaryName.maxNameBytes && name.hasPrefix("éé") && name.hasSuffix(".tmp"))
        try plant(owned.path + "-journal")
        owned.remove()
        // A dead run's file of that form (its lock free) is swept; the destination stays.
        try plant(owned.path)
        #expect(OwnedTemporary.sweep(beside: destination, kind: .file).contains(owned.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [String(repeating: "é", count: 127) + "x"])
    }

    @Test("a created file is locked while owned, removed with its registered files, and released when placed")
    func createdFileIsLockedAndRemoved() throws {
        let folder = try TestPaths.temporaryFolder("owned")
        let destination = folder + "/Out.sqlite"
        let owned = try OwnedTemporary.create(beside: destination, kind: .file)
        owned.registerDatabaseFiles()
        try plant(owned.path + "-journal")
        #expect(owned.path.hasPrefix(destination + ".ferry-") && owned.path.hasSuffix(".tmp"))
        #expect(TemporaryFiles.isRegistered(owned.path) && TemporaryFiles.isRegistered(owned.path + "-journal"))
        let probe = open(owned.path, O_RDONLY)
        defer { close(probe) }
        #expect(flock(probe, LOCK_EX | LOCK_NB) != 0, "the owner holds the lock")
        owned.remove()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        #expect(!TemporaryFiles.isRegistered(owned.path))

        let placed = try OwnedTemporary.create(beside: destination, kind: .folder)
        try FilePath.rename(placed.path, to: destination, replacing: false)
        placed.release()
        #expect(FileManager.default.fileExists(atPath: destination) && !TemporaryFiles.isRegistered(placed.path))
    }

    @Test("a released lock is free at once, though a copy of its descriptor lives on (as in a child another thread forked)")
    func releaseUnlocksSharedDescriptors() throws {
        let folder = try TestPaths.temporaryFolder("owned")
        let owned = try OwnedTemporary.create(beside: folder + "/Out.sqlite", kind: .file)
        let copy = dup(owned.fileDescriptor)
        defer { close(copy) }
        try #require(copy >= 0)
        owned.release()
        let probe = open(owned.path, O_RDONLY)
        defer { close(probe) }
        #expect(flock(probe, LOCK_EX | LOCK_NB) == 0, "the lock outlived its release")
    }

    @Test("a rename without replacing refuses an existing file or folder and leaves both as they were")
    func renameNeverReplaces() throws {
        let folder = try TestPaths.temporaryFolder("rename")
        try plant(folder + "/new", "new")
        try plant(folder + "/old", "old")
        let error = try #require(throws: ByteSinkError.self) { try FilePath.rename(folder + "/new", to: folder + "/old", replacing: false) }
        #expect(error.code == EEXIST)
        #expect(try String(contentsOfFile: folder + "/old", encoding: .utf8) == "old")
        #expect(try String(contentsOfFile: folder + "/new", encoding: .utf8) == "new")
        try FileManager.default.createDirectory(atPath: folder + "/a", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: false)
        #expect(throws: ByteSinkError.self) { try FilePath.rename(folder + "/a", to: folder + "/b", replacing: false) }
        try FilePath.rename(folder + "/new", to: folder + "/old", replacing: true)
        #expect(try String(contentsOfFile: folder + "/old", encoding: .utf8) == "new")
    }

    @Test("an exclusive sink refuses a planted symbolic link and leaves its target alone")
    func exclusiveSinkRefusesLinks() throws {
        let folder = try TestPaths.temporaryFolder("sink")
        try plant(folder + "/victim", "keep")
        try FileManager.default.createSymbolicLink(atPath: folder + "/out", withDestinationPath: folder + "/victim")
        let error = try #require(throws: ByteSinkError.self) { try FileByteSink(path: folder + "/out", exclusive: true) }
        #expect(error.code == EEXIST)
        #expect(try String(contentsOfFile: folder + "/victim", encoding: .utf8) == "keep")
    }

    @Test("ENOSPC and EFBIG read as a full disk and a file size limit naming the file; other errors do not")
    func writeFailures() throws {
        #expect(ByteSinkError(path: "out/Tag.ndjson", operation: "write", code: ENOSPC).description == "disk full writing out/Tag.ndjson")
        #expect(ByteSinkError(path: "S.sqlite", operation: "write", code: EFBIG).description == "file size limit reached writing S.sqlite")
        #expect(WriteFailure.of(ByteSinkError(path: "x", operation: "write", code: EACCES)) == nil)
        #expect(WriteFailure.of(ByteSinkError(path: "x", operation: "write", code: ENOSPC))?.cause == .diskFull)
        // /dev/full fails every write with ENOSPC: a full disk without filling one.
        let sink = try FileByteSink(path: "/dev/full")
        try sink.write(Array("record\n".utf8))
        let error = try #require(throws: ByteSinkError.self) { try sink.flush() }
        #expect(error.description == "disk full writing /dev/full")
    }
}
