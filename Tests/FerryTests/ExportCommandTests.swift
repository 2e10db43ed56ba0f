import Ferry
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
        #expect(try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out'").status == 0)
        let restore = try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(model)' --out '\(folder)/new.sqlite'")
        #expect(restore.status == 1, "\(restore.err)")
        #expect(restore.err.contains("warning: Upload.task: 1 records name a destination that no record of the backup lists back"), "\(restore.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/new.sqlite"))
    }
}

extension ExportCommandTests {
    /// Stores older than Core Data's model cache (Apptentive's, kik's) verified and answered
    /// queries with `--model`, but update and delete refused them: "no table Z_MODELCACHE".
    @Test("update and delete work on a store without Z_MODELCACHE when --model is given")
    func mutationWithoutModelCache() throws {
        let folder = try TestPaths.temporaryFolder("mutation-no-cache")
        let store = try ExportTestSupport.workspace2Store(folder)
        let model = ExportTestSupport.workspace
        #expect(try ExportTestSupport.shell("sqlite3 '\(store)' 'DROP TABLE Z_MODELCACHE'").status == 0)
        let dry = try ExportTestSupport.shell("'\(ferry)' update '\(store)' --model '\(model)' --entity Task --where 'taskID == 1' --set title=Renamed --dry-run")
        #expect(dry.status == 0, "\(dry.err)")
        let update = try ExportTestSupport.shell("'\(ferry)' update '\(store)' --model '\(model)' --entity Task --where 'taskID == 1' --set title=Renamed")
        #expect(update.status == 0, "\(update.err)")
        let delete = try ExportTestSupport.shell("'\(ferry)' delete '\(store)' --model '\(model)' --entity Tag --where 'name == \"nothing-has-this-name\"'")
        #expect(delete.status == 0, "\(delete.err)")
        let titles = try ExportTestSupport.shell("test \"$(sqlite3 '\(store)' \"SELECT count(*) FROM ZTASK WHERE ZTITLE = 'Renamed'\")\" = 1")
        #expect(titles.status == 0)
    }
}

/// A JSON export wrapped in an envelope (`{"exportedAt": …, "records": [{…}, {…}]}`) was read as
/// one record: the envelope written, its records dropped, exit 0.
@Suite("documents that hold their records under a key")
struct DocumentEnvelopeTests {
    private let model = ExportTestSupport.workspace

    private func importing(_ name: String, _ text: String, _ options: [String] = []) throws -> (status: Int32, out: String, err: String, store: String) {
        let folder = try TestPaths.temporaryFolder("envelope")
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        let store = folder + "/out.sqlite"
        let run = try FerryProcess.run(["import", folder + "/" + name, "--model", model, "--model-version", "Workspace 1",
                                        "--entity", "UploadEntity", "--out", store] + options)
        return (run.status, run.out, run.err, store)
    }

    private let envelope = #"{"fileName": "envelope", "exportedAt": "2014-01-01", "records": [{"fileName": "a.png"}, {"fileName": "b.png"}, {"fileName": "c.png"}]}"#

    @Test("a JSON object holding an array of objects under a key no attribute matches is refused (exit 3), naming the key and --records-key")
    func jsonEnvelopeRefused() throws {
        let run = try importing("export.json", envelope)
        #expect(run.status == 3, "\(run.out)\(run.err)")
        #expect(run.err.contains("key 'records'") && run.err.contains("holds 3 objects") && run.err.contains("--records-key"), "\(run.err)")
        #expect(!FileManager.default.fileExists(atPath: run.store))
        let keyed = try importing("export.json", envelope, ["--records-key", "records"])
        #expect(keyed.status == 0 && keyed.out.contains("read 3, written 3"), "\(keyed.out)\(keyed.err)")
    }

    @Test("a plist whose root dictionary holds an array of dictionaries under an unmatched key is refused (exit 3)")
    func plistEnvelopeRefused() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>fileName</key><string>envelope</string><key>records</key>
            <array><dict><key>fileName</key><string>a.png</string></dict><dict><key>fileName</key><string>b.png</string></dict></array>
            </dict></plist>
            """
        let run = try importing("export.plist", plist)
        #expect(run.status == 3 && run.err.contains("key 'records'") && run.err.contains("holds 2 objects"), "\(run.out)\(run.err)")
    }

    @Test("one record as one object is still read, an array of scalars under an unknown key does not make it a container")
    func singleRecordStillRead() throws {
        let run = try importing("one.json", #"{"fileName": "a.png", "tags": ["x", "y"], "notes": []}"#)
        #expect(run.status == 0 && run.out.contains("read 1, written 1"), "\(run.out)\(run.err)")
    }
}

extension ExportCommandTests {
    /// `query` copied such bytes through: its JSON was not UTF-8 (a strict parser refused the
    /// whole document), with exit 0, where `export` refuses the value.
    @Test("query of text that is not valid UTF-8 is refused in every format (exit 3), naming the object and attribute")
    func queryInvalidText() throws {
        let folder = try TestPaths.temporaryFolder("query-utf8")
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("sqlite3 '\(store)' \"UPDATE ZTASK SET ZTITLE = CAST(x'ff41c3' AS TEXT) WHERE Z_PK = 1\"").status == 0)
        for format in ["json", "ndjson", "csv", "table"] {
            let run = try FerryProcess.run(["query", store, "--entity", "Task", "--where", "Z_PK == 1", "--format", format])
            #expect(run.status == 3, "\(format): \(run.out)")
            #expect(run.err.contains("object Z_PK 1, attribute title: text that is not valid UTF-8 cannot be shown"), "\(run.err)")
        }
        let others = try FerryProcess.run(["query", store, "--entity", "Task", "--where", "Z_PK == 2", "--format", "json"])
        #expect(others.status == 0 && (try? JSONSerialization.jsonObject(with: Data(others.out.utf8))) != nil, "\(others.err)")
    }
}

extension ExportCommandTests {
    /// Two manifest entries with their entities swapped (each file still matching its digest)
    /// restored every Item as a Special and the other way round, with exit 0.
    @Test("a manifest that lists one entity's file for another is refused by restore (exit 5)")
    func swappedManifestEntries() throws {
        let folder = try TestPaths.temporaryFolder("manifest-swap")
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out'").status == 0)
        let swap = """
            python3 -c "
            import json; p='\(folder)/out/manifest.json'; m=json.load(open(p)); e=m['entities']
            a=[x for x in e if x['entity']=='Tag'][0]; b=[x for x in e if x['entity']=='Task'][0]
            a['entity'], b['entity'] = 'Task', 'Tag'; json.dump(m, open(p, 'w'))"
            """
        #expect(try ExportTestSupport.shell(swap).status == 0)
        let restore = try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(ExportTestSupport.workspace)' --out '\(folder)/new.sqlite'")
        #expect(restore.status == 5, "\(restore.err)")
        #expect(restore.err.contains("lists \"Tag.ndjson\" for entity Task, whose file an export names \"Task.ndjson\""), "\(restore.err)")
    }
}

extension ExportCommandTests {
    /// A manifest that lost an entity's entry restored a store without that entity's records,
    /// with only warnings about links and exit 0; the file beside it was ignored without a word.
    @Test("restore names an entity's file the manifest does not list, and exits 1")
    func unlistedFile() throws {
        let folder = try TestPaths.temporaryFolder("manifest-unlisted")
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("'\(ferry)' export '\(store)' --out '\(folder)/out'").status == 0)
        let drop = """
            python3 -c "
            import json; p='\(folder)/out/manifest.json'; m=json.load(open(p))
            m['entities']=[x for x in m['entities'] if x['entity']!='Tag']; json.dump(m, open(p, 'w'))"
            """
        #expect(try ExportTestSupport.shell(drop).status == 0)
        let restore = try ExportTestSupport.shell("'\(ferry)' restore '\(folder)/out' --model '\(ExportTestSupport.workspace)' --out '\(folder)/new.sqlite'")
        #expect(restore.status == 1, "\(restore.err)")
        #expect(restore.err.contains("warning: Tag.ndjson is in the folder but not in its manifest: its records are not restored"), "\(restore.err)")
    }
}
