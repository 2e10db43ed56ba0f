import CSQLite
import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// `EntityInserter` binds text and blobs from a reused buffer (`SQLITE_STATIC`), and takes rows
/// either as `[StoreValue]` or as attribute values with a column map. Both must store exactly
/// what `StoreValue(_:externallyStorable:)` says, whatever the sizes (the buffer grows within a row) and kinds.
@Suite struct EntityInserterBindingTests {
    static let entityNames = ["Car", "ExpensiveSportCar", "Person", "SportCar"]

    /// Car's columns are ZOWNER, ZMARKEDFORDELETIONASOF, ZMAKER, ZMODEL, ZNUMBERPLATE, ZCOLOR;
    /// the rows below keep their values in another order, mapped by `sources`.
    static let sources: [Int?] = [5, 3, 0, 1, 2, 4]
    static let longText = "Ünïcödé maker, a name longer than a small string"
    static let bigBlob = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    static let uuid = UUIDBytes(Array(0..<16))

    /// maker, model, plate, date, color, owner.
    static let rows: [[AttributeValue]] = [
        [.string("Maker"), .string(""), .string("P-1"), .date(12.5), .binary([]), .integer(1)],
        [.string(longText), .uri("https://example.com/a"), .string("P-2"), .null, .binary(bigBlob), .null],
        [.string("M"), .decimal("1.5"), .string("P-3"), .double(2.25), uuid.map(AttributeValue.uuid) ?? .null, .bool(true)],
        [.string(longText), .string(longText), .string("P-4 " + longText), .date(-1), .binary(bigBlob + bigBlob), .bool(false)],
    ]

    private func makeWriter(_ name: String) throws -> (CoreDataStoreWriter, String) {
        let path = temporaryStorePath(name)
        let writer = try CoreDataStoreWriter.create(
            at: path, model: Models.sampleModelV1, versionHashes: placeholderHashes(for: Self.entityNames),
            versionIdentifiers: ["1"])
        return (writer, path)
    }

    private func dump(_ path: String) throws -> [String] {
        try rowsAsText("ZCAR", ["quote(Z_PK)", "quote(Z_ENT)", "quote(Z_OPT)", "quote(ZOWNER)", "quote(ZMARKEDFORDELETIONASOF)", "quote(ZMAKER)",
                         "quote(ZMODEL)", "quote(ZNUMBERPLATE)", "quote(ZCOLOR)"], in: path)
    }

    @Test func attributeValuesStoreWhatStoreValuesStore() throws {
        let (byStoreValue, storeValuePath) = try makeWriter("store-values")
        let (byAttribute, attributePath) = try makeWriter("attribute-values")
        defer {
            removeStoreFiles(storeValuePath)
            removeStoreFiles(attributePath)
        }
        let cars = try byStoreValue.inserter(for: "Car")
        let mapped = try byAttribute.inserter(for: "Car")
        for row in Self.rows {
            try cars.insert(Self.sources.map { $0.map { StoreValue(row[$0], externallyStorable: false) } ?? .null })
            try mapped.insert(row, sources: Self.sources)
        }
        // A column without a source is NULL.
        try cars.insert([.integer(1), .real(12.5), .text("Maker"), .null, .text("P-5"), .blob([])])
        try mapped.insert([.string("Maker"), .string("unused"), .string("P-5"), .date(12.5), .binary([]), .integer(1)],
                          sources: [5, 3, 0, nil, 2, 4])
        try byStoreValue.finish()
        try byAttribute.finish()

        let expected = try dump(storeValuePath)
        #expect(try dump(attributePath) == expected)
        #expect(expected.count == 5)

        let database = try SQLiteDatabase(path: attributePath, mode: .readOnly)
        #expect(try database.scalarText("SELECT typeof(ZMODEL) || ':' || ZMODEL FROM ZCAR WHERE Z_PK = 1") == "text:")
        #expect(try database.scalarText("SELECT typeof(ZCOLOR) || ':' || length(ZCOLOR) FROM ZCAR WHERE Z_PK = 1") == "blob:0")
        #expect(try database.scalarText("SELECT ZMAKER FROM ZCAR WHERE Z_PK = 2") == Self.longText)
        #expect(try database.scalarText("SELECT ZMODEL FROM ZCAR WHERE Z_PK = 2") == "https://example.com/a")
        let blob = try database.prepare("SELECT ZCOLOR FROM ZCAR WHERE Z_PK = 4")
        #expect(try blob.step())
        #expect(blob.bytes(at: 0) == Self.bigBlob + Self.bigBlob)
        #expect(try database.scalarText("SELECT ZNUMBERPLATE FROM ZCAR WHERE Z_PK = 4") == "P-4 " + Self.longText)
        #expect(try database.scalarText("SELECT quote(ZMODEL) || quote(ZOWNER) || quote(ZMARKEDFORDELETIONASOF) FROM ZCAR WHERE Z_PK = 3")
            == "'1.5'12.25")
        #expect(try database.scalarInteger("SELECT length(ZCOLOR) FROM ZCAR WHERE Z_PK = 3") == 16)
        #expect(try database.scalarText("SELECT typeof(ZMODEL) FROM ZCAR WHERE Z_PK = 5") == "null")
        #expect(try database.scalarText("SELECT group_concat(Z_ENT || '/' || Z_OPT) FROM ZCAR") == "1/1,1/1,1/1,1/1,1/1")
    }

    @Test func aColumnMapOfTheWrongSizeOrPastTheValuesIsAnError() throws {
        let (writer, _) = try makeWriter("bad-map")
        defer { writer.discard() }
        let cars = try writer.inserter(for: "Car")
        #expect(throws: StoreWriterError.valueCount(entity: "Car", expected: 6, got: 2)) {
            try cars.insert([.string("x")], sources: [0, nil])
        }
        let error = try #require(throws: StoreWriterError.self) {
            try cars.insert([.string("x")], sources: [nil, nil, nil, nil, 3, nil])
        }
        guard case .sqlite(let failure) = error else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(failure.primaryCode == SQLITE_RANGE)
        // The failed rows took no key.
        #expect(try cars.insert([.string("P-1")], sources: [nil, nil, nil, nil, 0, nil]) == 1)
    }
}
