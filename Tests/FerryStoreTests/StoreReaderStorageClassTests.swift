import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// SQLite keeps any storage class in any column. Values whose storage class is not the one their
/// attribute type suggests (text in an integer column, a real in a text column, a blob that is not
/// UTF-8 where a string belongs…) read exactly as `ColumnValueDecoder` documents: a store's value
/// is read when Core Data writes that storage class for the type (what `verify` accepts), a typed
/// error naming the row otherwise, never converted into another form.
@Suite struct StoreReaderStorageClassTests {
    static let model = ManagedObjectModel(name: "Mixed", entities: [
        Entity(name: "Item", attributes: [
            Attribute(name: "small", type: .integer16), Attribute(name: "large", type: .integer64),
            Attribute(name: "flag", type: .boolean), Attribute(name: "ratio", type: .double),
            Attribute(name: "when", type: .date), Attribute(name: "price", type: .decimal),
            Attribute(name: "title", type: .string), Attribute(name: "link", type: .uri),
            Attribute(name: "payload", type: .binary), Attribute(name: "color", type: .transformable),
            Attribute(name: "photo", type: .binary, allowsExternalBinaryDataStorage: true),
            Attribute(name: "identifier", type: .uuid),
        ]),
    ])

    /// What one row reads as: its one non-NULL attribute's value, or the error's reason.
    enum Outcome: Equatable {
        case value(AttributeValue)
        case error(String)
    }

    /// One row per case: the attribute, the SQL literal stored in its column (in a column without
    /// a declared type, so SQLite keeps the literal's storage class), and what the row reads as.
    static let cases: [(attribute: String, literal: String, outcome: Outcome)] = [
        ("small", "7", .value(.integer(7))),
        ("small", "2.0", .value(.integer(2))),
        ("small", "2.5", .error("real 2.5 is not an integer")),
        ("small", "'12'", .error("text cannot be an Integer 16")),
        ("small", "X'0102'", .error("a blob cannot be an Integer 16")),
        ("small", "40000", .error("40000 is out of range for Integer 16")),
        ("large", "9223372036854775807", .value(.integer(Int64.max))),
        ("large", "1e19", .error("real 1e+19 is not an integer")),
        ("flag", "1", .value(.bool(true))),
        ("flag", "0.0", .value(.bool(false))),
        ("flag", "2", .error("2 is not a Boolean (0 or 1)")),
        ("flag", "'yes'", .error("text cannot be a Boolean")),
        ("ratio", "3", .value(.double(3))),
        ("ratio", "9007199254740993", .error("integer 9007199254740993 has no exact double")),
        ("ratio", "0.25", .value(.double(0.25))),
        ("ratio", "'0.25'", .error("text cannot be a Double")),
        ("ratio", "X'00'", .error("a blob cannot be a Double")),
        ("when", "5", .value(.date(5))),
        ("when", "'2001-01-01'", .error("text cannot be a Date")),
        ("price", "12", .value(.decimal("12"))),
        ("price", "0.1", .value(.decimal("0.1"))),
        ("price", "'12.50'", .error("text cannot be a Decimal")),
        ("price", "9007199254740993", .error("integer 9007199254740993 has no exact double")),
        ("price", "X'01'", .error("a blob cannot be a Decimal")),
        ("title", "'héllo'", .value(.string("héllo"))),
        ("title", "''", .value(.string(""))),
        ("title", "42", .error("an integer cannot be a String")),
        ("title", "0.3333333333333333", .error("a real cannot be a String")),
        ("title", "CAST(X'FF41' AS TEXT)", .error("text that is not valid UTF-8 cannot be read as a String without changing it")),
        ("title", "X'6869'", .error("a blob cannot be a String")),
        ("link", "7", .error("an integer cannot be a URI")),
        ("link", "'https://example.com/é'", .value(.uri("https://example.com/é"))),
        ("payload", "X'0001'", .value(.binary([0, 1]))),
        ("payload", "X''", .value(.binary([]))),
        ("payload", "'abc'", .error("text cannot be a Binary")),
        ("payload", "5", .error("an integer cannot be a Binary")),
        ("payload", "1.5", .error("a real cannot be a Binary")),
        ("color", "X'62706C697374'", .value(.binary(Array("bplist".utf8)))),
        ("photo", "X'010203'", .value(.binary([2, 3]))),
        ("photo", "CAST(X'0141' AS TEXT)", .error("text cannot be a Binary")),
        ("photo", "X'0903'", .error("external-storage value with unknown tag byte 9")),
        ("identifier", "X'000102030405060708090A0B0C0D0E0F'", .value(.uuid(UUIDBytes(Array(0..<16))!))),
        ("identifier", "'00010203-0405-0607-0809-0a0b0c0d0e0f'", .error("text cannot be a UUID")),
        ("identifier", "X'0102'", .error("a UUID blob has 2 bytes, not 16")),
        ("identifier", "5", .error("an integer cannot be a UUID")),
    ]

    /// A store of `Item`s holding the cases, in a temporary folder named after `label`
    /// (removed with the test process's folder).
    private func storeOfCases(in label: String) throws -> String {
        let path = try TestPaths.temporaryFolder(label) + "/store.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model, versionHashes: placeholderHashes(for: ["Item"]),
                                                    versionIdentifiers: ["v1"])
        try writer.finish()
        try storeCases(in: path)
        return path
    }

    @Test func mismatchedStorageClassesReadAsDocumented() throws {
        let path = try storeOfCases(in: "reader-storage-class")

        let cursor = try CoreDataStoreReader(path: path).records(model: Self.model).records(of: "Item")
        var outcomes: [Outcome] = []
        while true {
            do {
                guard let record = try cursor.next() else { break }
                outcomes.append(.value(record.attributes.values.first { $0 != .null } ?? .null))
            } catch {
                guard case .invalidValue(_, _, let key, _, let reason) = error else { throw error }
                #expect(key == Int64(outcomes.count + 1))
                outcomes.append(.error(reason))
            }
        }
        #expect(outcomes.count == Self.cases.count)
        for (index, (attribute, literal, outcome)) in Self.cases.enumerated() where index < outcomes.count {
            if case .error(let reason) = outcome {
                #expect(outcomes[index] == .error("Item Z_PK \(index + 1), attribute \(attribute): \(reason)"), "\(attribute) = \(literal)")
            } else {
                #expect(outcomes[index] == outcome, "\(attribute) = \(literal)")
            }
        }
    }

    /// The row-in-place reading (`advance`, `read`) gives the same values and errors as `next()`,
    /// and a value lent as SQLite holds it (`withPlainValue`) is exactly the value read.
    @Test func readingInPlaceAgrees() throws {
        let path = try storeOfCases(in: "reader-storage-class-slots")

        let reader = try CoreDataStoreReader(path: path).records(model: Self.model)
        let records = try reader.records(of: "Item")
        let rows = try reader.records(of: "Item")
        // Values in the cursor's position order, as `withPlainValue(at:)` counts them.
        let names = try #require(rows.attributeNames(of: "Item"))
        #expect(names.count == Self.model.allAttributes(of: "Item").count)
        var references: [StoredReference?] = []
        while let row = try rows.advance() {
            let slots = try #require(rows.slots(of: row.entity, attributes: names, toOne: []))
            var values = [AttributeValue](repeating: .null, count: names.count)
            let inPlace = Result { () throws(StoreReaderError) in try rows.read(slots, values: &values, references: &references) }
            let whole = Result { () throws(StoreReaderError) in try records.next() }
            switch (inPlace, whole) {
            case (.success, .success(let record?)):
                #expect(Dictionary(uniqueKeysWithValues: zip(names, values)) == record.attributes)
                for (position, value) in values.enumerated() {
                    rows.withPlainValue(at: position) { plain in
                        guard let plain else { return }
                        #expect(Self.attributeValue(of: plain, like: value) == value, "row \(row.primaryKey)")
                    }
                }
            case (.failure(let a), .failure(let b)):
                #expect(a == b)
            default:
                Issue.record("row \(row.primaryKey): \(inPlace) against \(whole)")
            }
        }
    }

    /// The attribute value a lent value stands for, typed like `value`.
    private static func attributeValue(of plain: PlainStoredValue, like value: AttributeValue) -> AttributeValue {
        switch (plain, value) {
        case (.null, _): .null
        case (.integer(let number), _): .integer(number)
        case (.text(let text), .uri): .uri(String(decoding: text, as: UTF8.self))
        case (.text(let text), _): .string(String(decoding: text, as: UTF8.self))
        case (.bytes(let bytes), _): .binary(Array(bytes))
        }
    }

    /// Replaces the entity table by one with the same columns and no declared types, and stores
    /// one row per case.
    private func storeCases(in path: String) throws {
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let info = try database.prepare("SELECT name FROM pragma_table_info('ZITEM')")
        var columns: [String] = []
        while try info.step() { columns.append(info.string(at: 0) ?? "") }
        info.finalize()
        #expect(columns.contains("ZTITLE") && columns.contains("ZIDENTIFIER"))
        let typeless = columns.filter { $0 != "Z_PK" }.joined(separator: ", ")
        try database.execute("DROP TABLE ZITEM; CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, \(typeless))")
        for (offset, (attribute, literal, _)) in Self.cases.enumerated() {
            try database.execute("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, Z\(attribute.uppercased())) VALUES (\(offset + 1), 1, 1, \(literal))")
        }
        try database.close()
    }
}
