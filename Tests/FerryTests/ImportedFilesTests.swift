import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// `import --append` of a file imported before added its records a second time with exit 0 (a
/// scheduled job run twice, a retry after a failure elsewhere). A store now lists the files
/// imported into it, by their bytes, and such a file, or one file given twice, is refused unless
/// `--again` (or `--key`, whose upserts a second run repeats harmlessly).
@Suite("Files imported before")
struct ImportedFilesTests {
    private let model = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func importing(_ files: [String], into store: String, _ options: [String]) throws -> FerryProcess.Result {
        try FerryProcess.run(["import"] + files + ["--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                                   "--out", store] + options)
    }

    private func count(_ store: String) throws -> [String] { try storeRows(store, "SELECT count(*) FROM ZUPLOADENTITY") }

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

    @Test("one file given twice is refused; standard input and --key imports are not held to the list")
    func givenTwice() throws {
        let folder = try TestPaths.temporaryFolder("imported-twice")
        let store = folder + "/u.sqlite", file = folder + "/a.csv"
        try "fileName,fileSize\na.jpg,1\n".write(toFile: file, atomically: true, encoding: .utf8)
        let twice = try importing([file, file], into: store, [])
        #expect(twice.status == 3 && twice.err.contains("\(file) holds the same bytes as \(file)"), "\(twice.err)")
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(try importing([file], into: store, []).status == 0)
        // An upsert by key: the same record again, not a second one.
        let upserted = try importing([file], into: store, ["--append", "--key", "fileName", "--on-duplicate", "keep-newest"])
        #expect(upserted.status == 0, "\(upserted.err)")
        #expect(try count(store) == ["1"])
        // Read from standard input: nothing to read again, so nothing is listed or refused.
        let piped = try FerryProcess.run(["import", "-", "--model", model, "--model-version", "Workspace 1", "--entity", "UploadEntity",
                                          "--out", store, "--append"], stdin: "fileName,fileSize\na.jpg,1\n")
        #expect(piped.status == 0, "\(piped.err)")
        #expect(try count(store) == ["2"])
    }
}
