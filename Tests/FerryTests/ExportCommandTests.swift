import Ferry
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// The built `ferry` binary on export, backup and restore: exit codes and failures a user sees.
@Suite("ferry export, backup and restore on the command line")
struct ExportCommandTests {
    private let ferry = ExportTestSupport.binary

    @Test("a file-size limit mid-export is reported (EFBIG), exit 4, not a silent SIGXFSZ death")
    func fileSizeLimit() throws {
        let folder = try TestPaths.temporaryFolder("export-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        // ulimit -f counts 512-byte blocks (POSIX sh): 8 blocks is 4 KiB, less than Task.ndjson.
        let run = try ExportTestSupport.shell("ulimit -f 8; '\(ferry)' export '\(store)' --out '\(folder)/out' --model '\(ExportTestSupport.workspace)'")
        #expect(run.status == 4, "stderr: \(run.err)")
        #expect(run.err.contains("file size limit reached writing \(folder)/out/"), "stderr: \(run.err)")
        // Built aside and removed: neither `out` nor its temporary folder is left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["Workspace2.sqlite"])
    }

    /// A store whose `Z_MODELCACHE` held another model than its metadata's hashes name was read
    /// with the cache's model: an Integer 64 exported as a Double, exit 0 (verify alone noticed).
    @Test("a store whose model cache is not the model its metadata names is refused by export and query without --model (exit 3); with it, exported")
    func foreignModelCacheRefused() throws {
        let folder = try TestPaths.temporaryFolder("foreign-model-cache")
        let store = try ExportTestSupport.workspace2Store(folder)
        let other = try #require(try XcodeModelLoader.loadBundle(at: ExportTestSupport.workspace).version(named: "Workspace 3"))
        let cache = try ModelArchiveEncoder.encodeModelCache(other).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE Z_MODELCACHE SET Z_CONTENT = X'\(cache.joined())'")
        try database.close()
        for arguments in [["export", store, "--out", folder + "/out"], ["query", store, "--entity", "Task"]] {
            let run = try FerryProcess.run(arguments)
            #expect(run.status == 3 && run.err.contains("the model in Z_MODELCACHE is not the one the store's metadata names (version hashes differ for "),
                    "\(arguments[0]): \(run.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
        let given = try FerryProcess.run(["export", store, "--out", folder + "/out", "--model", ExportTestSupport.workspace])
        #expect(given.status == 0, "\(given.err)")
    }

    @Test("backup: an unwritable target is exit 4 and leaves earlier backups untouched; --json prints one line")
    func unwritableTarget() throws {
        let folder = try TestPaths.temporaryFolder("backup-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        let ok = try ExportTestSupport.shell("'\(ferry)' backup '\(store)' --to '\(folder)/b' --json > '\(folder)/summary.json'")
        #expect(ok.status == 0 && ok.err.isEmpty)
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/summary.json"))) as? [String: Any]
        #expect(summary?["records"] as? Int == 108)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder + "/b")
        try Data().write(to: URL(fileURLWithPath: folder + "/file"))
        let blocked = try ExportTestSupport.shell("'\(ferry)' backup '\(store)' --to '\(folder)/file/b'")
        #expect(blocked.status == 4 && blocked.err.contains("cannot write"))
        let full = try ExportTestSupport.shell("ulimit -f 8; '\(ferry)' backup '\(store)' --to '\(folder)/b' --keep 1 --no-gzip")
        #expect(full.status == 4 && full.err.contains("file size limit reached writing \(folder)/b"), "stderr: \(full.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/b") == before)
    }

    /// The backup's files fit under the limit, the scratch store it is restored into does not:
    /// that was "the new backup does not restore" (5), which a monitor reads as a damaged backup.
    @Test("backup whose restore check meets the file size limit in the temporary folder is exit 4 naming that folder, not a verification failure")
    func restoreCheckWithoutRoom() throws {
        let folder = try TestPaths.temporaryFolder("backup-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        let temporary = folder + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: false)
        // The limit (blocks of 512 bytes) is raised until the backup is made: on the way, limits
        // above each gzip file of the backup and below the restored store.
        var (inTemporaryFolder, made) = (0, false)
        for blocks in stride(from: 20, through: 400, by: 20) where !made {
            let run = try ExportTestSupport.shell("ulimit -f \(blocks); TMPDIR='\(temporary)' '\(ferry)' backup '\(store)' --to '\(folder)/b'")
            #expect([0, 4].contains(run.status) && !run.err.contains("does not restore"), "ulimit -f \(blocks): \(run.err)")
            if run.err.contains("file size limit reached writing \(temporary)/") { inTemporaryFolder += 1 }
            made = run.status == 0
            let backups = try FileManager.default.contentsOfDirectory(atPath: folder + "/b").filter { !$0.hasPrefix(".") }
            #expect(backups.count == (made ? 1 : 0), "ulimit -f \(blocks): \(backups)")
        }
        #expect(made && inTemporaryFolder > 0)
    }

    @Test("export --out or backup --to an existing file, or through one: Ferry's message, exit 4, not Foundation's error dump")
    func outputIsAFile() throws {
        let folder = try TestPaths.temporaryFolder("export-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
        let export = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/file'")
        #expect(export.status == 4)
        #expect(export.err == "ferry export: \(folder)/file: cannot write: exists and is not a folder\n", "\(export.err)")
        let backup = try ExportTestSupport.shell("'\(ferry)' backup '\(store)' --to '\(folder)/file'")
        #expect(backup.status == 4 && backup.err.contains("\(folder)/file: cannot write: exists and is not a folder"), "\(backup.err)")
        let below = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/file/out'")
        #expect(below.status == 4 && below.err.contains("\(folder)/file/out: cannot write: \(folder)/file exists and is not a folder"), "\(below.err)")
        #expect(!export.err.contains("CocoaError") && !below.err.contains("CocoaError"))
        #expect(try String(contentsOfFile: folder + "/file", encoding: .utf8) == "keep me")
    }

    /// Found by a review: `--out new/` made `new` (the "parent" of `new/`), built the export
    /// inside it and then refused to rename it over `new`: exit 4, "it appeared while the export
    /// was written", and an empty `new` left behind.
    @Test("export --out DIR/ (a trailing slash) names the folder DIR, new or existing")
    func trailingSlashNamesTheFolder() throws {
        let folder = try TestPaths.temporaryFolder("export-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        for _ in 0..<2 {
            let run = try FerryProcess.run(["export", store, "--out", folder + "/out/"])
            #expect(run.status == 0, "\(run.err)")
            let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/out").filter { !$0.hasPrefix(".") }.sorted()
            #expect(names == ["Tag.ndjson", "Task.ndjson", "Upload.ndjson", "manifest.json"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["Workspace2.sqlite", "out"])
    }

    /// The relationship checks run on a connection of their own: one that could not open the
    /// store (too many open files) or a store written meanwhile had its failures thrown away, and
    /// the export of a damaged store exited 0 with none named.
    @Test("export whose relationship checks cannot run (no descriptor left for their connection) exits 1, says so, and the manifest keeps why")
    func uncheckedRelationships() throws {
        let folder = try TestPaths.temporaryFolder("export-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        let seen = try ExportTestSupport.sweepDescriptorLimits(
            "'\(ferry)' export '\(store)' --out '\(folder)/out' --no-fingerprints",
            unchecked: "relationship checks did not run on the state exported (the checker could not read the store",
            before: { try? FileManager.default.removeItem(atPath: folder + "/out") })
        #expect(seen, "no limit left the checker without a descriptor")
        func notChecked(_ export: String) throws -> String? {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + export + "/manifest.json"))
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["relationshipsNotChecked"] as? String
        }
        #expect(try notChecked("out")?.hasPrefix("the checker could not read the store") == true)
        let idle = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/idle' --no-fingerprints")
        #expect(idle.status == 0 && idle.err.isEmpty, "\(idle.err)")
        #expect(try notChecked("idle") == nil)
    }

    @Test("restore: an altered backup is exit 5, an existing store exit 4; bad store exit 3")
    func restoreCodes() throws {
        let folder = try TestPaths.temporaryFolder("restore-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        let model = ExportTestSupport.workspace
        #expect(try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out' --format csv").status == 0)
        let exists = try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(model)' --out '\(store)'")
        #expect(exists.status == 4 && exists.err.contains("--force"))
        try Data("Z_PK\r\n".utf8).write(to: URL(fileURLWithPath: folder + "/out/Tag.csv"))
        let altered = try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(model)' --out '\(folder)/new.sqlite'")
        #expect(altered.status == 5 && altered.err.contains("Tag.csv"))
        let bad = try ExportTestSupport.shell("'\(ferry)' export '\(folder)/summary-missing.sqlite' --out '\(folder)/x'")
        #expect(bad.status == 3)
    }
}

extension ExportCommandTests {
    @Test("restore that leaves out links (a key dangling in the backed-up store) says how many and exits 1, not 0")
    func restoreLeavingOutLinks() throws {
        let folder = try TestPaths.temporaryFolder("restore-cli")
        let store = try ExportTestSupport.workspace2Store(folder)
        let model = ExportTestSupport.workspace
        // An upload whose task is gone: the export keeps its key as it is, the restore cannot link it.
        let damage = try ExportTestSupport.shell(
            "sqlite3 '\(store)' 'UPDATE ZUPLOAD SET ZTASK = 999 WHERE Z_PK = (SELECT min(Z_PK) FROM ZUPLOAD WHERE ZTASK IS NOT NULL)'")
        #expect(damage.status == 0, "\(damage.err)")
        // The export keeps the key, and names the damage verify finds (exit 1).
        let exported = try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out'")
        #expect(exported.status == 1 && exported.err.contains("fails a relationship check of ferry verify") && exported.err.contains("dangling"),
                "\(exported.err)")
        let restore = try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(model)' --out '\(folder)/new.sqlite'")
        #expect(restore.status == 1, "\(restore.err)")
        #expect(restore.err.contains("warning: Upload.task: 1 pairs name a destination that no record of the backup lists back"), "\(restore.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/new.sqlite"))
    }
}

extension ExportCommandTests {
    /// An export of the Workspace 2 store whose manifest `edit` changes (its `entities`), restored.
    private func restoreWithManifest(_ label: String, edited edit: (inout [[String: Any]]) -> Void) throws -> (status: Int32, err: String) {
        let folder = try TestPaths.temporaryFolder(label)
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out'").status == 0)
        let url = URL(fileURLWithPath: folder + "/out/manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var entities = try #require(manifest["entities"] as? [[String: Any]])
        edit(&entities)
        manifest["entities"] = entities
        try RestoreJobTests.writeManifest(JSONDecoder().decode(ExportManifest.self, from: JSONSerialization.data(withJSONObject: manifest)), in: folder + "/out")
        return try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(ExportTestSupport.workspace)' --out '\(folder)/new.sqlite'")
    }

    /// Two manifest entries with their entities swapped (each file still matching its digest)
    /// restored every Item as a Special and the other way round, with exit 0.
    @Test("a manifest that lists one entity's file for another is refused by restore (exit 5)")
    func swappedManifestEntries() throws {
        let restore = try restoreWithManifest("manifest-swap") { entities in
            for index in entities.indices {
                switch entities[index]["entity"] as? String {
                case "Tag": entities[index]["entity"] = "Task"
                case "Task": entities[index]["entity"] = "Tag"
                default: break
                }
            }
        }
        #expect(restore.status == 5, "\(restore.err)")
        #expect(restore.err.contains("lists \"Tag.ndjson\" for entity Task, whose file an export names \"Task.ndjson\""), "\(restore.err)")
    }

    /// A file of an entity the model lacks, or a second copy of an entity's records in another
    /// format, was passed over by restore without a word (exit 0).
    @Test("restore names every file the manifest does not list, whatever its name; hidden files are not counted")
    func strayFiles() throws {
        let folder = try TestPaths.temporaryFolder("manifest-stray")
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out'").status == 0)
        for (name, text) in [("Ghost.ndjson", "{\"name\": \"precious\"}\n"), ("Task.csv", "title\nCall the bank\n"), (".DS_Store", "x")] {
            try text.write(toFile: folder + "/out/" + name, atomically: true, encoding: .utf8)
        }
        let restore = try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(ExportTestSupport.workspace)' --out '\(folder)/new.sqlite'")
        #expect(restore.status == 1, "\(restore.err)")
        for name in ["Ghost.ndjson", "Task.csv"] {
            #expect(restore.err.contains("warning: \(name) is in the folder but not in its manifest: its records are not restored"), "\(restore.err)")
        }
        #expect(!restore.err.contains(".DS_Store"), "\(restore.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/new.sqlite"))
    }

    /// A manifest that lost an entity's entry restored a store without that entity's records,
    /// with only warnings about links and exit 0; the file beside it was ignored without a word.
    @Test("restore names an entity's file the manifest does not list, and exits 1")
    func unlistedFile() throws {
        let restore = try restoreWithManifest("manifest-unlisted") { entities in entities.removeAll { $0["entity"] as? String == "Tag" } }
        #expect(restore.status == 1, "\(restore.err)")
        #expect(restore.err.contains("warning: Tag.ndjson is in the folder but not in its manifest: its records are not restored"), "\(restore.err)")
    }
}
