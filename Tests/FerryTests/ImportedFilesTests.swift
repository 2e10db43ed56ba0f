import FerryFormats
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `import --append` of a file imported before added its records a second time with exit 0 (a
/// scheduled job run twice, a retry after a failure elsewhere). A store now lists the files
/// imported into it, by their bytes, and such a file, or one file given twice, is refused unless
/// `--again`.
@Suite("Files imported before")
struct ImportedFilesTests {
    private let model = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func importing(_ files: [String], into store: String, _ options: [String]) throws -> FerryProcess.Result {
        try FerryProcess.run(["import"] + files + ["--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                                   "--out", store] + options)
    }

    private func count(_ store: String) throws -> [String] { try storeRows(store, "SELECT count(*) FROM ZUPLOADENTITY") }

    /// Sets one key of the store's metadata, as an app (or an edit) would.
    private func setMetadata(of store: String, _ key: String, to value: PropertyListValue) throws {
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let read = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        guard try read.step(), case .dictionary(var entries) = try PropertyList.decode(read.bytes(at: 0) ?? []) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        read.finalize()
        entries[key] = value
        let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        try update.bindBlob(try BinaryPropertyListWriter().encode(.dictionary(entries)), at: 1)
        try update.run()
        update.finalize()
        try database.close()
    }

    @Test("appending a file imported before is refused (exit 3, the store as it was); --again appends it")
    func appendedAgain() throws {
        let folder = try TestPaths.temporaryFolder("imported-again")
        let store = folder + "/u.sqlite", first = folder + "/day1.csv"
        try "fileName,fileSize\na.jpg,1\n写真.jpg,2\n".write(toFile: first, atomically: true, encoding: .utf8)
        #expect(try importing([first], into: store, []).status == 0)
        let metadata = try CoreDataStoreReader(path: store).metadata.propertyList
        let again = try importing([first], into: store, ["--append"])
        #expect(again.status == 3, "\(again.err)")
        #expect(again.err.contains("\(first): its bytes were imported into \(store) already (as \(first), ")
                && again.err.contains("2 records written): appending them again would add those records twice; nothing was written"),
                "\(again.err)")
        #expect(try count(store) == ["2"])
        // Another spelling of the same bytes (a copy under another name) is the same file.
        let copy = folder + "/copy.csv"
        try FileManager.default.copyItem(atPath: first, toPath: copy)
        #expect(try importing([copy], into: store, ["--append"]).status == 3)
        // Bytes of the same size that differ are another file.
        let second = folder + "/day2.csv"
        try "fileName,fileSize\nb.jpg,1\n写真.jpg,3\n".write(toFile: second, atomically: true, encoding: .utf8)
        let appended = try importing([second], into: store, ["--append"])
        #expect(appended.status == 0, "\(appended.err)")
        #expect(try count(store) == ["4"])
        let forced = try importing([first], into: store, ["--append", "--again"])
        #expect(forced.status == 0, "\(forced.err)")
        #expect(try count(store) == ["6"])
        // The store's other metadata keys are as they were; the list names every run's file.
        let after = try CoreDataStoreReader(path: store).metadata.propertyList
        #expect(after.filter { $0.key != "FerryImportedFiles" } == metadata.filter { $0.key != "FerryImportedFiles" })
        guard case .string(let list)? = after["FerryImportedFiles"] else {
            Issue.record("no list of imported files")
            return
        }
        #expect(list.components(separatedBy: "\"sha256\"").count == 4, "\(list)")
        let inspected = try FerryProcess.run(["inspect", store])
        #expect(inspected.out.contains("  imported: 3 files, the newest \(first) ("), "\(inspected.out)")
        #expect(inspected.out.contains(", 2 UploadEntity records); import --append refuses them again"), "\(inspected.out)")
        #expect(try FerryProcess.run(["verify", store]).status == 0)
    }

    @Test("one file given twice is refused; standard input is not held to the list; an upsert by --key again needs --again")
    func givenTwice() throws {
        let folder = try TestPaths.temporaryFolder("imported-twice")
        let store = folder + "/u.sqlite", file = folder + "/a.csv"
        try "fileName,fileSize\na.jpg,1\n".write(toFile: file, atomically: true, encoding: .utf8)
        let twice = try importing([file, file], into: store, [])
        #expect(twice.status == 3 && twice.err.contains("\(file) holds the same bytes as \(file)"), "\(twice.err)")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try importing([file], into: store, []).status == 0)
        // An upsert by key: refused as any file imported before (a record whose key is NULL
        // would be added again); with --again, the same record again, not a second one.
        #expect(try importing([file], into: store, ["--append", "--key", "fileName", "--on-duplicate", "keep-newest"]).status == 3)
        let upserted = try importing([file], into: store, ["--append", "--key", "fileName", "--on-duplicate", "keep-newest", "--again"])
        #expect(upserted.status == 0, "\(upserted.err)")
        #expect(try count(store) == ["1"])
    }

    /// Standard input and pipes were not listed: a scheduled `producer | ferry import - --append`
    /// run twice added every record again with exit 0.
    @Test("a stream is digested as it is read: the same bytes piped again, or through a FIFO, are refused once read (exit 3)")
    func streams() throws {
        let folder = try TestPaths.temporaryFolder("imported-streams")
        let store = folder + "/u.sqlite", file = folder + "/a.csv"
        let bytes = "fileName,fileSize\na.jpg,1\n", other = "fileName,fileSize\nb.jpg,2\n写真.jpg,3\n"
        try bytes.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try importing([file], into: store, []).status == 0)
        func piped(_ text: String, _ options: [String] = []) throws -> FerryProcess.Result {
            try FerryProcess.run(["import", "-", "--format", "csv", "--model", model, "--model-version", "Workspace 1",
                                  "--entity", "UploadEntity", "--out", store, "--append"] + options, stdin: text)
        }
        // The file's bytes on standard input are the file's.
        let same = try piped(bytes)
        #expect(same.status == 3 && same.err.contains("<stdin>: its bytes were imported into \(store) already (as \(file), "), "\(same.err)")
        #expect(try count(store) == ["1"])
        // Other bytes are appended and listed; piped again, they are refused; --again appends them.
        #expect(try piped(other).status == 0)
        #expect(try count(store) == ["3"])
        let again = try piped(other)
        #expect(again.status == 3 && again.err.contains("<stdin>: its bytes were imported into \(store) already (as <stdin>, "), "\(again.err)")
        #expect(try count(store) == ["3"])
        #expect(try piped(other, ["--again"]).status == 0)
        #expect(try count(store) == ["5"])
        // A FIFO holding a listed file's bytes, and a FIFO beside the same file in one run.
        let fifo = try FerryProcess.shell("mkfifo f && (cat a.csv > f &) && ferry import f --format csv --model '\(model)' "
            + "--model-version 'Workspace 1' --entity UploadEntity --out u.sqlite --append", in: folder)
        #expect(fifo.status == 3 && fifo.err.contains("f: its bytes were imported into u.sqlite already"), "\(fifo.err)")
        let twin = try FerryProcess.shell("rm -f f && mkfifo f && (cat a.csv > f &) && ferry import a.csv f --format csv --model '\(model)' "
            + "--model-version 'Workspace 1' --entity UploadEntity --out new.sqlite", in: folder)
        #expect(twin.status == 3 && twin.err.contains("f holds the same bytes as a.csv"), "\(twin.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/new.sqlite"))
        #expect(try count(store) == ["5"])
    }

    @Test("a file imported as another entity is another file; a list that cannot be read is refused, and --again starts it anew")
    func entityAndUnreadableList() throws {
        let folder = try TestPaths.temporaryFolder("imported-entity")
        let store = folder + "/u.sqlite", file = folder + "/both.csv"
        try "fileName,taskDesc,taskID\na.jpg,call,7\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try importing([file], into: store, []).status == 0)
        let asTask = try FerryProcess.run(["import", file, "--model", model, "--model-version", "Workspace 1", "--entity", "KYTask",
                                           "--out", store, "--append"])
        #expect(asTask.status == 0, "\(asTask.err)")
        #expect(try importing([file], into: store, ["--append"]).status == 3)
        // An edited list: no file can be checked against it.
        try setMetadata(of: store, "FerryImportedFiles", to: .string("[not a list"))
        let refused = try importing([file], into: store, ["--append"])
        #expect(refused.status == 3 && refused.err.contains("its list of the files imported into it cannot be read"), "\(refused.err)")
        #expect(try FerryProcess.run(["inspect", store]).out.contains("imported: the list cannot be read"))
        #expect(try importing([file], into: store, ["--append", "--again"]).status == 0)
        #expect(try importing([file], into: store, ["--append"]).status == 3)
        #expect(try count(store) == ["2"])
    }

    /// Migrating two stores into one dropped both lists, files read by the migration were not
    /// listed, and with `--no-verify` the one store's application keys were dropped too.
    @Test("migrate keeps every store's list and adds the files it reads, as the entity their records became")
    func migrateKeepsLists() throws {
        let folder = try TestPaths.temporaryFolder("imported-migrate")
        let first = folder + "/s1.csv", second = folder + "/s2.csv", third = folder + "/s3.csv"
        try "fileName,fileSize\nx.jpg,1\n".write(toFile: first, atomically: true, encoding: .utf8)
        try "fileName,fileSize\ny.jpg,2\nz.jpg,3\n".write(toFile: second, atomically: true, encoding: .utf8)
        try "fileName,fileSize\nw.jpg,4\n".write(toFile: third, atomically: true, encoding: .utf8)
        #expect(try importing([first], into: folder + "/s1.sqlite", []).status == 0)
        #expect(try importing([second], into: folder + "/s2.sqlite", []).status == 0)
        for verify in [[], ["--no-verify"]] {
            let migrated = folder + "/m\(verify.count).sqlite"
            let run = try FerryProcess.run(["migrate", folder + "/s1.sqlite", folder + "/s2.sqlite", "UploadEntity@Workspace 1:" + third,
                                            "--model", model, "--out", migrated] + verify)
            #expect(run.status == 0, "\(run.err)")
            for file in [first, second, third] {
                let again = try FerryProcess.run(["import", file, "--model", model, "--entity", "Upload", "--out", migrated, "--append"])
                #expect(again.status == 3 && again.err.contains("its bytes were imported into \(migrated) already"), "\(again.err)")
            }
            #expect(try FerryProcess.run(["inspect", migrated]).out.contains("imported: 3 files, the newest \(third) ("))
        }
    }

    @Test("migrate --no-verify keeps the application's metadata keys of the one store it reads (they were dropped)")
    func unverifiedMigrationKeepsApplicationKeys() throws {
        let folder = try TestPaths.temporaryFolder("imported-app-keys")
        let file = folder + "/s.csv", store = folder + "/s.sqlite"
        try "fileName,fileSize\nx.jpg,1\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try importing([file], into: store, []).status == 0)
        try setMetadata(of: store, "AppSchemaRevision", to: .integer(7))
        let migrated = folder + "/m.sqlite"
        #expect(try FerryProcess.run(["migrate", store, "--model", model, "--out", migrated, "--no-verify"]).status == 0)
        let kept = try CoreDataStoreReader(path: migrated).metadata.applicationEntries
        #expect(kept["AppSchemaRevision"] == .integer(7) && kept["FerryImportedFiles"] != nil, "\(kept.keys)")
    }
}
