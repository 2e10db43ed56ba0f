import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// `EntityInserter` stages rows of a table without uniqueness indexes and inserts them several at
/// a time. Whatever the batching — full statements, a shorter last one, a flush forced by large
/// values or by a commit, rows keeping their identity — the store must hold exactly what one
/// insert per row writes, with the same keys.
@Suite struct EntityInserterBatchTests {
    static let model = ManagedObjectModel(name: "Notes", versionIdentifier: "1", entities: [
        Entity(name: "Note", attributes: [
            Attribute(name: "body", type: .string),
            Attribute(name: "created", type: .date),
            Attribute(name: "photo", type: .binary, allowsExternalBinaryDataStorage: true),
            Attribute(name: "size", type: .integer64),
            Attribute(name: "title", type: .string),
        ]),
    ])

    /// The attributes in the order of `row(_:)`.
    static let attributes = ["title", "body", "created", "photo", "size"]
    static let large = (0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }

    /// Row `n`: varied kinds and sizes, and two values large enough to flush a batch early.
    static func row(_ n: Int) -> [AttributeValue] {
        [.string(n % 7 == 0 ? "" : "笔记 \(n)"),
         n % 5 == 0 ? .null : .string(String(repeating: "body \(n) ", count: n % 13)),
         .date(Double(n) * 1.5),
         n == 70 || n == 71 ? .binary(large) : (n % 3 == 0 ? .binary([UInt8(n & 0xFF), 1, 2]) : .null),
         .integer(Int64(n) * 1_000_003)]
    }

    /// For each column of the inserter, the position of its attribute in `row(_:)`.
    private func columnSources(_ inserter: EntityInserter) -> [Int?] {
        inserter.columns.map { column in
            guard case let .attribute(_, name) = column.role else { return nil }
            return Self.attributes.firstIndex(of: name)
        }
    }

    private func makeWriter(_ name: String) throws -> (CoreDataStoreWriter, String) {
        let path = temporaryStorePath(name)
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model,
                                                    versionHashes: VersionHasher.hashes(of: Self.model).entityHashes,
                                                    versionIdentifiers: ["1"])
        return (writer, path)
    }

    private func dump(_ path: String) throws -> [String] {
        try rowsAsText("ZNOTE", ["quote(Z_PK)", "quote(Z_ENT)", "quote(Z_OPT)", "quote(ZBODY)", "quote(ZCREATED)", "hex(ZPHOTO)", "typeof(ZPHOTO)",
                         "quote(ZSIZE)", "quote(ZTITLE)"], in: path)
    }

    @Test func batchedRowsAreWhatOneInsertPerRowWrites() throws {
        let (batched, batchedPath) = try makeWriter("batched")
        let (single, singlePath) = try makeWriter("single")
        defer {
            removeStoreFiles(batchedPath)
            removeStoreFiles(singlePath)
        }
        let notes = try batched.inserter(for: "Note")
        let oneByOne = try single.inserter(for: "Note")
        let sources = columnSources(notes)
        #expect(sources.compactMap { $0 }.sorted() == [0, 1, 2, 3, 4])
        for n in 1...150 {
            #expect(try notes.insert(Self.row(n), sources: sources) == Int64(n))
            try oneByOne.insert(Self.row(n), sources: sources)
            // A commit inserts the staged rows first: each row of this store is inserted alone.
            try single.commit()
        }
        try batched.finish()
        try single.finish()

        let expected = try dump(singlePath)
        #expect(expected.count == 150)
        #expect(try dump(batchedPath) == expected)
        let database = try SQLiteDatabase(path: batchedPath, mode: .readOnly)
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'") == 150)
        #expect(try database.scalarInteger("SELECT count(*) FROM ZNOTE WHERE length(ZPHOTO) > 700000") == 2)
    }

    @Test func aRowThatFailsToBindTakesBackItselfAlone() throws {
        let (writer, path) = try makeWriter("failed-row")
        defer { removeStoreFiles(path) }
        let notes = try writer.inserter(for: "Note")
        let sources = columnSources(notes)
        for n in 1...3 { #expect(try notes.insert(Self.row(n), sources: sources) == Int64(n)) }
        // A source past the values: SQLite's range error, for this row only.
        #expect(throws: StoreWriterError.self) { try notes.insert([.string("short")], sources: sources) }
        #expect(try notes.insert(Self.row(4), sources: sources) == 4)
        try writer.finish()
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try database.scalarText("SELECT group_concat(Z_PK || ':' || ZSIZE) FROM ZNOTE")
            == "1:1000003,2:2000006,3:3000009,4:4000012")
    }

    @Test func rowsKeepingTheirIdentityKeepTheirKeysOrTakeTheNext() throws {
        let (writer, path) = try makeWriter("identity")
        defer { removeStoreFiles(path) }
        let notes = try writer.inserter(for: "Note")
        let sources = columnSources(notes)
        // Above every key handed out: staged with the others.
        #expect(try notes.insert(Self.row(1), sources: sources, identity: ObjectIdentity(primaryKey: 10, version: 4)) == 10)
        #expect(try notes.insert(Self.row(2), sources: sources) == 11)
        // Below: inserted alone; free, so kept.
        #expect(try notes.insert(Self.row(3), sources: sources, identity: ObjectIdentity(primaryKey: 5, version: 2)) == 5)
        // Taken by a staged row: the next key.
        #expect(try notes.insert(Self.row(4), sources: sources, identity: ObjectIdentity(primaryKey: 11, version: 3)) == 12)
        #expect(try notes.insert(Self.row(5), sources: sources) == 13)
        try writer.finish()

        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let keys = try database.prepare("SELECT Z_PK, Z_OPT, ZSIZE FROM ZNOTE ORDER BY Z_PK")
        var rows: [[Int64]] = []
        while try keys.step() { rows.append([keys.int64(at: 0), keys.int64(at: 1), keys.int64(at: 2)]) }
        #expect(rows == [[5, 2, 3_000_009], [10, 4, 1_000_003], [11, 1, 2_000_006], [12, 1, 4_000_012], [13, 1, 5_000_015]])
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'") == 13)
    }

    @Test("a row that keeps the largest key is written, and a new row after it is refused with a typed error (the writer crashed on an overflow)")
    func theLargestKeyIsKeptAndNothingFollowsIt() throws {
        let (writer, path) = try makeWriter("largest-key")
        defer { removeStoreFiles(path) }
        let notes = try writer.inserter(for: "Note")
        let sources = columnSources(notes)
        #expect(try notes.insert(Self.row(1), sources: sources, identity: ObjectIdentity(primaryKey: .max, version: 1)) == .max)
        #expect(try notes.insert(Self.row(2), sources: sources, identity: ObjectIdentity(primaryKey: 7, version: 1)) == 7)
        #expect(throws: StoreWriterError.primaryKeysExhausted(root: "Note")) { try notes.insert(Self.row(3), sources: sources) }
        #expect(throws: StoreWriterError.primaryKeysExhausted(root: "Note")) { try writer.reservePrimaryKeys(root: "Note", count: 1) }
        #expect(try writer.reservePrimaryKeys(root: "Note", count: 0).isEmpty)
        writer.discard()
    }

    @Test func appendedRowsKeepTheirVersionsWhetherNewOrKept() throws {
        let (writer, path) = try makeWriter("versions")
        defer { removeStoreFiles(path) }
        let notes = try writer.inserter(for: "Note")
        let sources = columnSources(notes)
        // Every key follows the one before (rows appended with NULL keys); new rows' version 1 is
        // the statement's, a kept identity's version is bound. Each change of kind inserts the
        // staged rows first.
        #expect(try notes.insert(Self.row(1), sources: sources, identity: ObjectIdentity(primaryKey: 1, version: 3)) == 1)
        #expect(try notes.insert(Self.row(2), sources: sources) == 2)
        #expect(try notes.insert(Self.row(3), sources: sources) == 3)
        #expect(try notes.insert(Self.row(4), sources: sources, identity: ObjectIdentity(primaryKey: 4, version: 2)) == 4)
        #expect(try notes.insert(Self.row(5), sources: sources) == 5)
        try writer.finish()

        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let keys = try database.prepare("SELECT Z_PK, Z_OPT, ZSIZE FROM ZNOTE ORDER BY Z_PK")
        var rows: [[Int64]] = []
        while try keys.step() { rows.append([keys.int64(at: 0), keys.int64(at: 1), keys.int64(at: 2)]) }
        #expect(rows == [[1, 3, 1_000_003], [2, 1, 2_000_006], [3, 1, 3_000_009], [4, 2, 4_000_012], [5, 1, 5_000_015]])
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'") == 5)
    }

    @Test func appendingContinuesAboveTheRowsWhenZMaxLagsBehind() throws {
        let (writer, path) = try makeWriter("append")
        defer { removeStoreFiles(path) }
        let notes = try writer.inserter(for: "Note")
        let sources = columnSources(notes)
        for n in 1...3 { try notes.insert(Self.row(n), sources: sources) }
        try writer.finish()
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWrite)
            try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Note'")
            try database.close()
        }

        let appender = try CoreDataStoreWriter.append(to: path, model: Self.model)
        let appended = try appender.inserter(for: "Note")
        #expect(try appended.insert(Self.row(4), sources: sources) == 4)
        try appender.finish()
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        #expect(try database.scalarInteger("SELECT count(*) FROM ZNOTE") == 4)
        #expect(try database.scalarInteger("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'") == 4)
    }
}
