import CSQLite
import FerryFormats
@testable import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Where a store is built and how it is put in place: never over a store that appeared meanwhile
/// unless asked, nothing left beside it, no-room failures named after the destination.
struct StoreWriterPlacementTests {
    private func makeWriter(at path: String) throws -> CoreDataStoreWriter {
        try CoreDataStoreWriter.create(at: path, model: Models.sampleModelV1, versionHashes: placeholderHashes(for: CoreDataStoreWriterTests.entityNames),
                                       versionIdentifiers: ["1"])
    }

    private func names(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test("a store that appeared while another was built is not replaced without replacing, and nothing is left beside it")
    func neverReplacesWithoutBeingAsked() throws {
        let folder = try TestPaths.temporaryFolder("placement")
        let path = folder + "/Out.sqlite"
        let first = try makeWriter(at: path)
        let second = try makeWriter(at: path)
        try first.finish(replacing: false)
        let placed = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreWriterError.self) { try second.finish(replacing: false) }
        #expect(error == .destinationExists(path))
        second.discard()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == placed)
        #expect(try names(in: folder) == ["Out.sqlite"])
        let third = try makeWriter(at: path)
        try third.finish(replacing: true)
        #expect(try names(in: folder) == ["Out.sqlite"])
    }

    /// A --force import replaced a store that an --append run finished (exit 0) while it was
    /// built, and the appended records were gone.
    @Test("a store that changed or appeared while its replacement was built is not replaced, even when replacing; nothing is left beside it")
    func neverReplacesWhatChangedMeanwhile() throws {
        let folder = try TestPaths.temporaryFolder("placement-changed")
        let path = folder + "/Out.sqlite"
        try makeWriter(at: path).finish()
        let replacing = try makeWriter(at: path)
        let other = try makeWriter(at: path)
        _ = try other.inserter(for: "Person").insert([.real(0), .text("appended"), .null, .null])
        try other.finish(replacing: true)
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = try #require(throws: StoreWriterError.self) { try replacing.finish(replacing: true) }
        #expect(error == .destinationChanged(path))
        replacing.discard()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
        let appeared = folder + "/New.sqlite"
        let late = try makeWriter(at: appeared)
        try makeWriter(at: appeared).finish()
        #expect(throws: StoreWriterError.destinationChanged(appeared)) { try late.finish(replacing: true) }
        late.discard()
        #expect(try names(in: folder) == ["New.sqlite", "Out.sqlite"])
        // A reader's connection leaves an empty -wal while it is open, and takes it away: no change.
        let read = try makeWriter(at: path)
        _ = FileManager.default.createFile(atPath: path + "-wal", contents: Data())
        try read.finish(replacing: true)
        #expect(try names(in: folder) == ["New.sqlite", "Out.sqlite"])
    }

    @Test("a commit's flush to disk is waited for however the writer ends: placed durably or not, committed twice, or discarded")
    func earlyFlushEndsWithTheWriter() throws {
        let folder = try TestPaths.temporaryFolder("placement")
        for (index, ending) in ["durable", "twice", "not durable", "unflushed", "discarded"].enumerated() {
            let path = folder + "/Out\(index).sqlite"
            let writer = try makeWriter(at: path)
            _ = try writer.inserter(for: "Person").insert([.real(0), .text("n"), .null, .null])
            try writer.commit(flushing: ending != "unflushed")
            if ending == "twice" { try writer.commit() }
            switch ending {
            case "discarded":
                writer.discard()
                #expect(!FileManager.default.fileExists(atPath: path))
            default:
                try writer.finish(durable: ending != "not durable")
                let count = try SQLiteDatabase(path: path, mode: .readOnly).scalarInteger("SELECT count(*) FROM ZPERSON")
                #expect(count == 1, "\(ending)")
            }
        }
        #expect(try names(in: folder) == ["Out0.sqlite", "Out1.sqlite", "Out2.sqlite", "Out3.sqlite"])
    }

    @Test("a writer's leftovers of a dead run are swept when the next writer to the same store starts")
    func sweepsDeadLeftovers() throws {
        let folder = try TestPaths.temporaryFolder("placement")
        let path = folder + "/Out.sqlite"
        let leftover = path + ".ferry-44444444-4444-4444-8444-444444444444.tmp"
        for file in [leftover, leftover + "-journal"] { try Data("old".utf8).write(to: URL(fileURLWithPath: file)) }
        let writer = try makeWriter(at: path)
        let building = URL(fileURLWithPath: writer.temporaryPath).lastPathComponent
        #expect(try names(in: folder).allSatisfy { $0.hasPrefix(building) })
        writer.discard()
        #expect(try names(in: folder).isEmpty)
    }

    @Test("a store that fills its space (SQLite's max_page_count) fails as a full disk naming the destination, and leaves nothing")
    func fullStoreIsADiskFull() throws {
        let folder = try TestPaths.temporaryFolder("placement")
        let path = folder + "/Out.sqlite"
        let writer = try makeWriter(at: path)
        try writer.execute("PRAGMA max_page_count = 40")
        let people = try writer.inserter(for: "Person")
        let error = try #require(throws: StoreWriterError.self) {
            for row in 0..<10_000 {
                _ = try people.insert([.real(0), .text(String(repeating: "n", count: 2_000) + "\(row)"), .null, .null])
            }
            try writer.finish()
        }
        #expect(error.writeFailure == WriteFailure(cause: .diskFull, path: path))
        #expect(error.description == "disk full writing \(path)")
        writer.discard()
        #expect(try names(in: folder).isEmpty)
    }

    @Test("SQLite's result codes and errno map to write failures only for a full disk or the file size limit")
    func sqliteWriteFailureMapping() throws {
        let folder = try TestPaths.temporaryFolder("placement")
        let file = folder + "/Out.sqlite.ferry-X.tmp"
        #expect(SQLiteError.environmentFailure(code: SQLITE_FULL, systemErrno: 0, file: file, destination: "Out.sqlite")
            == WriteFailure(cause: .diskFull, path: "Out.sqlite"))
        #expect(SQLiteError.environmentFailure(code: SQLITE_IOERR | (3 << 8), systemErrno: EFBIG, file: file, destination: "Out.sqlite")
            == WriteFailure(cause: .fileSizeLimit, path: "Out.sqlite"))
        #expect(SQLiteError.environmentFailure(code: SQLITE_IOERR | (3 << 8), systemErrno: ENOSPC, file: file, destination: "Out.sqlite")?.cause == .diskFull)
        // No limit set and room on the disk: an I/O error is something else.
        #expect(SQLiteError.environmentFailure(code: SQLITE_IOERR | (3 << 8), systemErrno: EIO, file: file, destination: "Out.sqlite") == nil)
        #expect(SQLiteError.environmentFailure(code: SQLITE_CONSTRAINT, systemErrno: ENOSPC, file: file, destination: "Out.sqlite") == nil)
        // A failed read of the database's own files is no want of room, whatever errno says (as
        // for a connection that writes nothing of its own): a read, or EIO on a damaged disk
        // (CORRUPTFS), was "file size limit reached" under any ulimit -f.
        for readError in [SQLITE_IOERR | (1 << 8), SQLITE_IOERR | (33 << 8)] {
            #expect(SQLiteError.environmentFailure(code: readError, systemErrno: EFBIG, file: file, destination: "Out.sqlite") == nil)
            #expect(SQLiteError.environmentFailure(code: readError, systemErrno: ENOSPC, file: file, destination: "Out.sqlite") == nil)
        }
        #expect(StoreWriterError.fileSystem(path: "Out.sqlite", operation: "write", errno: EFBIG).description
            == "file size limit reached writing Out.sqlite")
        #expect(StoreWriterError.fileSystem(path: "Out.sqlite", operation: "rename", errno: EACCES).writeFailure == nil)
    }

    @Test("a write failure of a connection that writes nothing of its own is in SQLite's temporary files, named by their folder")
    func temporaryFileWriteFailure() throws {
        let file = try TestPaths.temporaryFolder("placement") + "/Source.sqlite"
        let writeError = SQLITE_IOERR | (3 << 8)
        let failure = try #require(SQLiteError.environmentFailure(code: writeError, systemErrno: EFBIG, file: file, destination: file, writesOwnFiles: false))
        #expect(failure == WriteFailure(cause: .fileSizeLimit, path: SQLiteTemporaryFiles.folder, inTemporaryFiles: true))
        #expect(failure.description.hasPrefix("file size limit reached writing a temporary file in \(SQLiteTemporaryFiles.folder)"))
        #expect(SQLiteError.environmentFailure(code: SQLITE_FULL, systemErrno: ENOSPC, file: file, destination: file, writesOwnFiles: false)?.description
            .contains("disk full writing temporary files in \(SQLiteTemporaryFiles.folder) (SQLite's sort and scratch files: set SQLITE_TMPDIR") == true)
        // A failed read is no want of room.
        #expect(SQLiteError.environmentFailure(code: SQLITE_IOERR | (1 << 8), systemErrno: EFBIG, file: file, destination: file, writesOwnFiles: false) == nil)
        // The error says it, not the store's path and SQLite's code.
        let error = SQLiteError(path: file, code: writeError, message: "disk I/O error", writeFailure: failure)
        #expect(error.description == failure.description && StoreReaderError.sqlite(error).description == failure.description)
    }

    /// Found by hostile runs: SQLite's codes for a file not opened for want of descriptors, a
    /// read-only folder and a -shm that could not grow were the store's failures (exit 3).
    @Test("SQLite's codes for what the environment lacks map to its failures, naming the file or folder")
    func sqliteEnvironmentFailureMapping() {
        let file = "/data/Out.sqlite"
        #expect(SQLiteError.environmentFailure(code: SQLITE_CANTOPEN, systemErrno: EMFILE, file: file, destination: file, writesOwnFiles: false)
            == WriteFailure(cause: .descriptorLimit, path: file))
        #expect(SQLiteError.environmentFailure(code: SQLITE_CANTOPEN, systemErrno: ENOENT, file: file, destination: file) == nil)
        #expect(SQLiteError.environmentFailure(code: SQLITE_READONLY | (6 << 8), systemErrno: 0, file: file, destination: file)
            == WriteFailure(cause: .readOnlyFolder, path: "/data"))
        #expect(SQLiteError.environmentFailure(code: SQLITE_READONLY, systemErrno: 0, file: file, destination: file, writesOwnFiles: false) == nil)
        #expect(SQLiteError.environmentFailure(code: SQLITE_IOERR | (19 << 8), systemErrno: EFBIG, file: file, destination: file)
            == WriteFailure(cause: .fileSizeLimit, path: file))
        // The database's own file failed the write (its last errno): the destination's failure, whatever the sizes say.
        #expect(SQLiteError.environmentFailure(code: SQLITE_IOERR | (3 << 8), systemErrno: EFBIG, mainFilesErrno: EFBIG, file: file,
                                               destination: "Out.sqlite") == WriteFailure(cause: .fileSizeLimit, path: "Out.sqlite"))
    }

    /// Found by a hostile test under `ulimit -n`: every verb said "SQLite error 14 (unable to
    /// open database file)" and nothing of why.
    @Test("a file SQLite could not open for want of descriptors says so; other causes keep SQLite's words")
    func tooManyOpenFiles() {
        let message = "unable to open database file"
        #expect(SQLiteError.explained(message, status: 14, systemErrno: EMFILE) == message + " (too many open files: the process's limit, ulimit -n, is reached)")
        #expect(SQLiteError.explained(message, status: 14, systemErrno: ENFILE) == message + " (too many open files in the system)")
        #expect(SQLiteError.explained(message, status: 14, systemErrno: ENOENT) == message)
        #expect(SQLiteError.explained("constraint failed", status: 19, systemErrno: EMFILE) == "constraint failed")
    }
}
