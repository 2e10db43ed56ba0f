@testable import Ferry
import FerryFormats
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Every corpus store's rows, counted four ways that share no code: Python's sqlite3 module over
/// a private copy (store and `-wal`), Ferry's census (plain SQL), Ferry's record reader through
/// the store's own model (`inspect`), and the records in an export's files counted line by line.
/// A path that drops or invents a row fails here.
@Suite("corpus stores: every row accounted for four ways", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct CorpusAccountingTests {
    /// Rows per `Z_NAME` of an app entity, counted by Python over a copy of the store and its `-wal`.
    private func pythonCounts(_ store: String) throws -> [String: Int64] {
        let folder = try TestPaths.temporaryFolder("python-count")
        let copy = folder + "/store.sqlite"
        try FileManager.default.copyItem(atPath: store, toPath: copy)
        if FileManager.default.fileExists(atPath: store + "-wal") { try FileManager.default.copyItem(atPath: store + "-wal", toPath: copy + "-wal") }
        let script = """
            import sqlite3, sys, json
            db = sqlite3.connect(sys.argv[1])
            names = {e: n for e, n in db.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")}
            counts = {n: 0 for n in names.values()}
            for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
                cols = {r[1] for r in db.execute('PRAGMA table_info("%s")' % t.replace('"', '""'))}
                if t == "Z_PRIMARYKEY" or not {"Z_PK", "Z_ENT"} <= cols: continue
                for e, c in db.execute('SELECT Z_ENT, count(*) FROM "%s" GROUP BY Z_ENT' % t.replace('"', '""')):
                    if e in names: counts[names[e]] += c
                    elif e is None or e < 16000: counts["?stray %s %s" % (t, e)] = c
            print(json.dumps(counts))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, copy]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return try JSONDecoder().decode([String: Int64].self, from: data)
    }

    @Test("Python's count = the census = the reader's = the export's lines", arguments: CorpusStores.all)
    func fourWays(_ relative: String) throws {
        let store = CorpusStores.path(relative)
        let python = try pythonCounts(store)
        let census = try StoreCensus(path: store)
        #expect(Dictionary(uniqueKeysWithValues: census.appEntities.map { ($0.name, $0.rows) }) == python, "census")
        #expect(census.strays.isEmpty)
        let report = try StoreReport(path: store, bundlePath: nil)
        #expect(report.discrepancies.isEmpty, "reader: \(report.discrepancies)")
        guard report.model != nil else { return }
        let out = try TestPaths.temporaryFolder("corpus-export") + "/export"
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: out, format: .ndjson)).run()
        // Export files are named by the model's entities, Python counts by Z_NAME (an older name
        // after a renaming migration): matched through the store's own numbers.
        let reader = try CoreDataStoreReader(path: store)
        let layout = try reader.layout(for: try StoreModelMatch.archivedModel(of: reader))
        for entry in manifest.entities {
            #expect(try ExportRecordTally.count(FileByteSource(path: out + "/" + entry.file), format: .ndjson) == entry.count, "\(entry.file)")
            let name = layout.entityNumbers[entry.entity].flatMap { census.entity(number: Int64($0))?.name } ?? entry.entity
            #expect(Int64(entry.count) == python[name] ?? 0, "\(entry.entity): exported \(entry.count), python \(python[name] ?? 0)")
        }
    }
}
