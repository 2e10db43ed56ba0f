import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Jobs run where the system cannot make a thread (the address space `ulimit -v` allows is used
/// up). The read-ahead of an import, the writing and gzip of an export and the sending of a
/// PostgreSQL COPY ran on libdispatch queues, which retry such a thread forever: each of these
/// runs hung until killed. They now start their threads themselves and, without one, do the same
/// work on the job's thread.
///
/// Each run here gets a stack limit larger than the address space it may use: every thread's
/// stack is reserved at that size, so no thread can be made, while the process has room for the
/// rest. A `timeout` ends a run that hangs.
@Suite("jobs without threads (ulimit -v)", .timeLimit(.minutes(5)))
struct ThreadShortageCommandLineTests {
    private static let model = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// `ferry ARGUMENTS` in `folder` with no thread to be had, killed after two minutes.
    private func ferryWithoutThreads(_ arguments: [String], in folder: String) throws -> FerryProcess.Result {
        let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        return try FerryProcess.shell("ulimit -s 2000000 && ulimit -v 1500000 && exec timeout -s KILL 120 ferry \(quoted)", in: folder)
    }

    /// A store of 20,000 uploads (several read-ahead batches, several gzip blocks), imported with threads.
    private func uploadStore(in folder: String) throws -> String {
        let generated = try FerryProcess.run(["generate", "uploads", "--count", "20000", "--clean", "--out", folder + "/uploads.csv"])
        try #require(generated.status == 0, "\(generated.err)")
        let imported = try FerryProcess.run(["import", folder + "/uploads.csv", "--model", Self.model, "--model-version", "Workspace 2",
                                             "--entity", "Upload", "--out", folder + "/Threads.sqlite"])
        try #require(imported.status == 0, "\(imported.err)")
        return folder + "/Threads.sqlite"
    }

    @Test("an import reads its file in line and writes the same store")
    func importWithoutThreads() throws {
        let folder = try TestPaths.temporaryFolder("no-threads-import")
        let threaded = try uploadStore(in: folder)
        let run = try ferryWithoutThreads(["import", "uploads.csv", "--model", Self.model, "--model-version", "Workspace 2",
                                           "--entity", "Upload", "--out", "Alone.sqlite"], in: folder)
        #expect(run.status == 0, "\(run.err)")
        #expect(try ExportTestSupport.contents(of: folder + "/Alone.sqlite", modelPath: Self.model)
            == ExportTestSupport.contents(of: threaded, modelPath: Self.model))
    }

    @Test("an export writes and compresses its files on its own thread: the same bytes", arguments: [["--gzip"], ["--format", "csv"]])
    func exportWithoutThreads(options: [String]) throws {
        let folder = try TestPaths.temporaryFolder("no-threads-export")
        let store = try uploadStore(in: folder)
        let threaded = try FerryProcess.run(["export", store, "--out", folder + "/threaded"] + options)
        try #require(threaded.status == 0, "\(threaded.err)")
        let run = try ferryWithoutThreads(["export", store, "--out", "alone"] + options, in: folder)
        #expect(run.status == 0, "\(run.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder + "/threaded").filter { $0 != "manifest.json" }
        #expect(files.count == 3)
        for file in files {
            #expect(try TestPaths.read(folder + "/alone/" + file) == TestPaths.read(folder + "/threaded/" + file), "\(file)")
        }
    }

    @Test("a PostgreSQL load sends its COPY data itself, and the store comes back the same",
          .enabled(if: PostgresTestServer.isAvailable, PostgresTestSupport.skipReason))
    func postgresWithoutThreads() throws {
        let folder = try TestPaths.temporaryFolder("no-threads-pg")
        let model = try PostgresTestSupport.garageModel()
        let stores = try (1...2).map { try PostgresTestSupport.garageStore(at: folder + "/G\($0).sqlite", modelFolder: model, seed: $0) }
        let uri = try PostgresTestSupport.database()
        let load = try ferryWithoutThreads(["export"] + stores + ["--to", uri, "--jobs", "2"], in: folder)
        #expect(load.status == 0, "\(load.out)\(load.err)")
        #expect(load.out.contains("2 of 2 stores loaded"), "\(load.out)")
        let store = stores[1]
        let uuid = try CoreDataStoreReader(path: store).metadata.storeUUID.text
        let restore = try ferryWithoutThreads(["restore", uri, "--store", uuid, "--model", model, "--out", "R.sqlite"], in: folder)
        #expect(restore.status == 0, "\(restore.err)")
        #expect(try ExportTestSupport.contents(of: folder + "/R.sqlite", modelPath: model) == ExportTestSupport.contents(of: store, modelPath: model))
    }
}
