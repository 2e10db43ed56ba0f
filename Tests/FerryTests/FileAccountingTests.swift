@testable import Ferry
import FerryFormats
import FerryMigration
import FerryModel
import FerryTestSupport
import Foundation
import Testing

/// Every record of a file source is accounted for by a second count that does not trust the
/// reader (`RecordCensus`, through `CensusTap`): a reader that drops or invents a record fails
/// the job before anything is written, as a store's reader does against `StoreCensus`.
@Suite("file sources: every record accounted for independently")
struct FileAccountingTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// A reader that loses the record at `index` (0-based), as a buggy reader would.
    private final class LosingStream: RecordStream {
        private let base: any RecordStream
        private let index: Int
        private var handed = 0
        init(_ base: any RecordStream, losing index: Int) {
            self.base = base
            self.index = index
        }
        var sourceName: String { base.sourceName }
        var unknownKeys: [String] { base.unknownKeys }
        var matchesAnyKey: Bool { base.matchesAnyKey }
        var skippedLines: Int { base.skippedLines }
        var absentDefaults: [AbsentDefault] { base.absentDefaults }
        func next() throws(RecordSourceError) -> RecordReadResult? {
            if handed == index { _ = try base.next() }
            handed += 1
            return try base.next()
        }
        func withNext(_ body: (borrowing RecordReadResult) -> Void) throws(RecordSourceError) -> Bool {
            guard let result = try next() else { return false }
            body(result)
            return true
        }
    }

    /// Reads `path` as records of `entity` of Workspace 2 through a cursor, losing record
    /// `losing` when given; the cursor's verdict at the end.
    private func finish(_ path: String, entity: String, losing: Int? = nil) throws -> Result<Int, PipelineError> {
        let bundle = try XcodeModelLoader.loadBundle(at: workspace)
        let model = try #require(bundle.version(named: "Workspace 2"))
        let schema = try #require(RecordSchema(model: model, entityName: entity))
        let files = FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"])
        let opened = try files.open(path, model: model, schema: schema)
        let records: any RecordStream = losing.map { LosingStream(opened.records, losing: $0) } ?? opened.records
        let cursor = FileRecordCursor(path: path, records: records, entity: entity, version: 0, versionName: model.name, census: opened.census)
        return Result { () throws(PipelineError) -> Int in
            var read = 0
            while try cursor.next() != nil { read += 1 }
            _ = try cursor.finish(read: [:], stopped: false)
            return read
        }
    }

    @Test("every fixture's reader hands out what the census counts", arguments: [
        ("uploads.csv", "Upload"), ("uploads.plist", "Upload"), ("tasks.json", "Task"), ("tasks.ndjson", "Task"),
    ])
    func fixturesAgree(_ file: String, _ entity: String) throws {
        let read = try finish(TestPaths.fixtures + "/legacy/" + file, entity: entity).get()
        #expect(read > 10)
    }

    @Test("a reader that loses a record fails the source, naming both counts", arguments: [
        "uploads.csv", "uploads.plist", "tasks.json", "tasks.ndjson",
    ])
    func lostRecordIsCaught(_ file: String) throws {
        let entity = file.hasPrefix("tasks") ? "Task" : "Upload"
        let outcome = try finish(TestPaths.fixtures + "/legacy/" + file, entity: entity, losing: 3)
        guard case .failure(.notAccounted(let source, let problems)) = outcome else {
            Issue.record("\(file): \(outcome)")
            return
        }
        #expect(source.hasSuffix(file))
        #expect(problems.count == 1 && problems[0].contains("a second scan of the file counts"), "\(problems)")
    }

    /// A file truncated while `import` read it was imported as the shorter file (exit 0,
    /// "verified": the census counts the bytes the reader gets), and one rewritten in place mixed
    /// the rows of both; the list of imported files held a digest of neither, made apart. The
    /// file's stamp is compared at its end with the one at its opening, and the digest is of the
    /// bytes read. The change comes between two reads: the reader holds its first 256 KiB.
    @Test("a file truncated, rewritten in place or replaced while it is read fails its reading, naming it; the digest is of the bytes read",
          arguments: ["unchanged", "truncated", "rewritten", "replaced"])
    func changedWhileRead(_ change: String) throws {
        let folder = try TestPaths.temporaryFolder("changed-while-read")
        let path = folder + "/uploads.csv"
        let text = "fileName,fileSize,time,urlPath\n" + (1...40_000).map { "IMG_\($0).jpg,1.5,1388541660,/remote/\($0).jpg\n" }.joined()
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        // An old time, so that a rewrite within the clock tick of the file's creation changes it.
        var old = [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)]
        try #require(utimensat(AT_FDCWD, path, &old, 0) == 0)
        let model = try #require(try XcodeModelLoader.loadBundle(at: workspace).version(named: "Workspace 2"))
        let schema = try #require(RecordSchema(model: model, entityName: "Upload"))
        let opened = try FileRecordSource().open(path, model: model, schema: schema)
        #expect(try opened.records.next() != nil)
        switch change {
        case "truncated": try #require(truncate(path, off_t(text.utf8.count / 2)) == 0)
        case "rewritten": try FileHandle(forWritingAtPath: path).map { try $0.write(contentsOf: Data(text.replacingOccurrences(of: "IMG", with: "PIC").utf8)) }
        case "replaced":
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/next.csv"))
            try #require(rename(folder + "/next.csv", path) == 0)
        default: break
        }
        let outcome = Result { () throws(RecordSourceError) in while try opened.records.next() != nil {} }
        if change == "unchanged" {
            #expect(throws: Never.self) { try outcome.get() }
            #expect(opened.digest.result?.sha256 == SHA256.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined())
            #expect(opened.digest.result?.bytes == text.utf8.count)
        } else {
            guard case .failure(let error) = outcome else { Issue.record("\(change): read to its end without an error"); return }
            #expect(error.description == "\(path): changed while it was read (another process wrote, truncated or replaced it); run again once it is complete")
            #expect(opened.digest.result == nil)
        }
    }

    /// A backslash before a line break in NDJSON: the broken line is one reject and the next
    /// line's record is read. The string's scan used to step over the line break as an escape
    /// and end the reject on the next line, losing its record with exit 1; the census found it.
    @Test("an escaped line break in NDJSON ends its line's record, not the next one's")
    func escapedLineBreak() throws {
        let folder = try TestPaths.temporaryFolder("escaped-line-break")
        let source = folder + "/items.ndjson"
        try Data("{\"code\":1}\n{\"code\":2,\"s\":\"x\\\n{\"code\":3}\n{\"code\":4}\n".utf8).write(to: URL(fileURLWithPath: source))
        try Data("{\"code\":1}\n".utf8).write(to: URL(fileURLWithPath: folder + "/model.ndjson"))
        let infer = try FerryProcess.run(["model", "infer", folder + "/model.ndjson", "--entity", "Item", "--out", folder + "/Item.xcdatamodeld"])
        #expect(infer.status == 0, "\(infer.err)")
        let run = try FerryProcess.run(["import", source, "--model", folder + "/Item.xcdatamodeld", "--entity", "Item",
                                        "--out", folder + "/items.sqlite", "--json"])
        #expect(run.status == 1, "\(run.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        let rejects = try #require(summary["sampleRejects"] as? [[String: Any]])
        #expect((rejects.first?["location"] as? [String: Any])?["line"] as? Int == 2, "\(rejects)")
        #expect(summary["read"] as? Int == 4)
        #expect(summary["written"] as? Int == 3)
        #expect(summary["rejected"] as? Int == 1)
    }

    /// The import's accounting holds every ledger to its balance, a carried entity's included:
    /// those were checked as written + merged against themselves, which could not fail.
    @Test("an unbalanced ledger of a carried entity fails the import's accounting")
    func unbalancedCarriedLedgerFails() throws {
        let model = try #require(try XcodeModelLoader.loadBundle(at: workspace).version(named: "Workspace 3"))
        var summary = ImportSummary(entity: "Task", modelVersion: model.name, outputPath: "tasks.sqlite")
        var carried = SourceLedger(source: "tasks.json", entity: "Upload", version: model.name)
        carried.read = 3
        carried.written = 2
        var own = SourceLedger(source: "tasks.json", entity: "Task", version: model.name)
        (own.read, own.written) = (1, 1)
        summary.ledgers = [own, carried]
        let section = summary.accounting(model: model, appended: true).section(storeRows: nil)
        #expect(section.checks == 2)
        #expect(section.failures.map(\.subject) == ["tasks.json Upload"], "\(section.failures)")
    }
}
