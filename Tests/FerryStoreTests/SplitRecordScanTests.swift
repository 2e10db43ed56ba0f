import FerryFormats
import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// A table read on worker threads (`SplitRecordScan`) gives what one statement gives: the same
/// records in the same order, the same values lent, the same rows refused, whatever the keys
/// (sparse, beyond a range's width, far apart) and the rows' sizes.
@Suite struct SplitRecordScanTests {
    private typealias Model = StoreReaderRoundTripTests

    /// Thing rows (Gadget and Widget alternating, every attribute type), a few with an owner.
    private func writeStore(_ path: String, things: Int, payload: (Int) -> [UInt8] = { _ in [] }) throws {
        let writer = try CoreDataStoreWriter.create(at: path, model: Model.model, versionHashes: placeholderHashes(for: Model.names),
                                                    versionIdentifiers: ["v1"])
        let owners = try writer.inserter(for: "Owner")
        for name in ["Ada", "東京"] { _ = try owners.insert([.text(name)]) }
        for offset in 0..<things {
            let entity = offset.isMultiple(of: 2) ? "Gadget" : "Widget"
            let inserter = try writer.inserter(for: entity)
            var row = [StoreValue](repeating: .null, count: inserter.columns.count)
            for (name, value) in Model.thingValues[offset % Model.thingValues.count] {
                row[try #require(inserter.columnIndex(for: .attribute(entity: "Thing", name: name)))] = StoreValue(value, externallyStorable: false)
            }
            let bytes = payload(offset)
            if !bytes.isEmpty { row[try #require(inserter.columnIndex(for: .attribute(entity: "Thing", name: "payload")))] = .blob(bytes) }
            if offset % 7 == 0 {
                row[try #require(inserter.columnIndex(for: .toOne(entity: "Thing", relationship: "owner")))] = .integer(Int64(1 + offset % 2))
                row[try #require(inserter.columnIndex(for: .orderKey(entity: "Thing", relationship: "owner")))] = .integer(Int64(offset))
            }
            _ = try inserter.insert(row)
        }
        try writer.finish()
    }

    /// Every call of `next()` until the end: a record, or the reason a row was refused (the
    /// cursor goes on after it), or the error that ended the stream.
    private enum Outcome: Equatable {
        case record(StoredRecord)
        case refused(String)
    }

    private func drain(_ path: String, entity: String, split: Bool) throws -> [Outcome] {
        let cursor = try CoreDataStoreReader(path: path).records(model: Model.model)
            .records(of: entity, minimumSplitSpan: split ? 0 : nil)
        #expect(cursor.readsOnWorkers == split)
        var outcomes: [Outcome] = []
        while true {
            do {
                guard let record = try cursor.next() else { return outcomes }
                outcomes.append(.record(record))
            } catch {
                outcomes.append(.refused("\(error)"))
                guard case .invalidValue = error else { return outcomes }
            }
        }
    }

    /// Every row's values as `forEachPlainValue(at:_:)` lends them, and the ones it does not as
    /// `value(at:)` reads them.
    private func lent(_ path: String, split: Bool) throws -> [String] {
        let cursor = try CoreDataStoreReader(path: path).records(model: Model.model)
            .records(of: "Thing", minimumSplitSpan: split ? 0 : nil)
        var rows: [String] = []
        while let row = try cursor.advance() {
            let count = try #require(cursor.attributeNames(of: row.entity)).count
            var values: [String] = ["\(row.primaryKey) \(row.entity) v\(cursor.versionOfCurrentRow)"]
            cursor.forEachPlainValue(at: (0..<count).map { $0 }) { position, plain in
                switch plain {
                case .null: values.append("null")
                case .integer(let number): values.append("\(number)")
                case .text(let text): values.append("'\(String(decoding: text, as: UTF8.self))'")
                case .bytes(let bytes): values.append("x\(bytes.count):\(bytes.reduce(0) { $0 &* 31 &+ Int($1) })")
                case nil:
                    do { values.append("(\(try cursor.value(at: position)))") } catch { values.append("refused: \(error)") }
                }
            }
            values.append("\(try cursor.reference(at: 0).map { "\($0)" } ?? "-") \(cursor.holdsReference(at: 0))")
            rows.append(values.joined(separator: " "))
        }
        return rows
    }

    /// Where two lists first differ and how long each is (nil: they are equal): a failure says
    /// that much, not every record of both.
    private func firstDifference<Element: Equatable>(_ found: [Element], _ expected: [Element]) -> String? {
        guard found != expected else { return nil }
        let index = zip(found, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(found.count, expected.count)
        let describe = { (list: [Element]) in index < list.count ? "\(list[index])" : "nothing" }
        return "\(found.count) vs \(expected.count) items; at \(index): \(describe(found)) where \(describe(expected)) was expected"
    }

    @Test func recordsAndLentValuesAreThoseOneStatementReads() throws {
        let path = temporaryStorePath("split")
        defer { removeStoreFiles(path) }
        try writeStore(path, things: 5_000)
        // Keys far apart and past a range's width: the last thousand rows jump by 10^12, a stretch
        // of millions of empty ranges, and two rows sit at the ends of the key space.
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("""
            UPDATE ZTHING SET Z_PK = Z_PK + 1000000000000 WHERE Z_PK > 4000;
            UPDATE ZTHING SET Z_PK = 9223372036854775807 WHERE Z_PK = 3;
            UPDATE ZTHING SET Z_PK = -9223372036854775807 WHERE Z_PK = 5;
            UPDATE ZTHING SET ZSMALL = 'not a number', Z_OPT = NULL WHERE Z_PK IN (1000, 2500);
            """)
        try database.close()

        let sequential = try drain(path, entity: "Thing", split: false)
        #expect(sequential.count == 5_000)
        #expect(sequential.filter { if case .refused = $0 { true } else { false } }.count == 2)
        #expect(firstDifference(try drain(path, entity: "Thing", split: true), sequential) == nil)
        #expect(firstDifference(try drain(path, entity: "Gadget", split: true), try drain(path, entity: "Gadget", split: false)) == nil)
        let lentSequentially = try lent(path, split: false)
        #expect(lentSequentially.count == 5_000)
        #expect(firstDifference(try lent(path, split: true), lentSequentially) == nil)
    }

    @Test func rowsLargerThanABatchAreReadWhole() throws {
        let path = temporaryStorePath("split-blobs")
        defer { removeStoreFiles(path) }
        // Every 250th row holds 1.2 MB: a batch ends at 1 MB, so such a row comes in a batch of its own.
        try writeStore(path, things: 2_500) { offset in
            offset % 250 == 0 ? (0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ offset) } : Array("row \(offset)".utf8)
        }
        let sequential = try drain(path, entity: "Thing", split: false)
        #expect(sequential.count == 2_500)
        #expect(firstDifference(try drain(path, entity: "Thing", split: true), sequential) == nil)
    }

    /// A leaf of the Thing table a fraction of the way through its b-tree, overwritten.
    @Test(arguments: [1, 2, 3, 5, 7])
    func aDamagedPageEndsTheRowsWhereOneStatementEndsThem(eighths: Int) throws {
        let path = temporaryStorePath("split-damaged")
        defer { removeStoreFiles(path) }
        try writeStore(path, things: 5_000)
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let leaves = try database.prepare("SELECT pageno FROM dbstat WHERE name = 'ZTHING' AND pagetype = 'leaf' ORDER BY path")
        var pages: [Int64] = []
        while try leaves.step() { pages.append(leaves.int64(at: 0)) }
        leaves.finalize()
        let pageSize = try #require(try database.scalarInteger("PRAGMA page_size"))
        try database.close()
        try #require(pages.count > 10)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let start = Int((pages[pages.count * eighths / 8] - 1) * pageSize)
        bytes.replaceSubrange(start..<start + Int(pageSize), with: Data(repeating: 0xA5, count: Int(pageSize)))
        try bytes.write(to: URL(fileURLWithPath: path))

        let sequential = try drain(path, entity: "Thing", split: false)
        let split = try drain(path, entity: "Thing", split: true)
        // Both end with the damage, after every row before it in key order.
        guard case .refused(let reason)? = sequential.last, case .refused(let splitReason)? = split.last else {
            Issue.record("the damaged page was read without an error")
            return
        }
        #expect(reason.contains("malformed") && splitReason.contains("malformed"))
        #expect(sequential.count > 100 && sequential.count < 4_900)
        #expect(firstDifference(Array(split.dropLast()), Array(sequential.dropLast())) == nil)
    }

    @Test func aCursorLeftBeforeItsEndStopsItsWorkers() throws {
        let path = temporaryStorePath("split-left")
        defer { removeStoreFiles(path) }
        try writeStore(path, things: 30_000)
        for read in [0, 1, 2_000] {
            let cursor = try CoreDataStoreReader(path: path).records(model: Model.model).records(of: "Thing", minimumSplitSpan: 0)
            #expect(cursor.readsOnWorkers)
            for _ in 0..<read { _ = try cursor.advance() }
        }
        // The workers closed their connections: the store takes a write at once.
        let writer = try SQLiteDatabase(path: path, mode: .readWrite, busyTimeoutMilliseconds: 0)
        try writer.execute("BEGIN EXCLUSIVE; COMMIT")
        try writer.close()
    }

    @Test func withoutThreadsTheTableIsReadWithOneStatement() throws {
        let path = temporaryStorePath("split-no-threads")
        defer { removeStoreFiles(path) }
        try writeStore(path, things: 3_000)
        let cursor = try WorkerThread.refusingThreads {
            try CoreDataStoreReader(path: path).records(model: Model.model).records(of: "Thing", minimumSplitSpan: 0)
        }
        #expect(!cursor.readsOnWorkers)
        var read = 0
        while try cursor.next() != nil { read += 1 }
        #expect(read == 3_000)
    }

    @Test func aSmallTableIsReadWithOneStatement() throws {
        let path = temporaryStorePath("split-small")
        defer { removeStoreFiles(path) }
        try writeStore(path, things: 100)
        let cursor = try CoreDataStoreReader(path: path).records(model: Model.model).records(of: "Thing")
        #expect(!cursor.readsOnWorkers)
    }
}
