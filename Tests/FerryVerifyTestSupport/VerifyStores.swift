import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Stores for the verifier tests: a linked Workspace 3 store written through `StoreGraphWriter`,
/// and a small store with inheritance and a one-to-one relationship written row by row.
public enum VerifyStores {
    public static let workspace3: ManagedObjectModel = {
        let bundle = try? XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        return bundle?.version(named: "Workspace 3") ?? ManagedObjectModel(name: "missing", entities: [])
    }()

    /// 6 uploads, 3 tags, 4 tasks: attachments by remote path, tags by name.
    public static func makeWorkspace3(in folder: String) throws -> String {
        let path = folder + "/Workspace3.sqlite"
        let model = workspace3
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                   versionIdentifiers: [""])
        let graph = StoreGraphWriter(writer: store, model: model)
        let upload = try #require(RecordSchema(model: model, entityName: "Upload"))
        let task = try #require(RecordSchema(model: model, entityName: "Task"))
        let tag = try #require(RecordSchema(model: model, entityName: "Tag"))
        func values(_ schema: RecordSchema, _ pairs: [String: AttributeValue]) -> [AttributeValue] {
            schema.attributes.map { pairs[$0.name] ?? .null }
        }
        for number in 1...6 {
            let uuid = try #require(UUIDBytes([UInt8](repeating: UInt8(number), count: 16)))
            _ = try graph.write(Record(values: values(upload, [
                "remotePath": .string("/u/\(number).jpg"), "fileName": .string("file \(number).jpg"), "kind": .integer(5),
                "uploadID": .uuid(uuid), "createdAt": .date(400_000_000 + Double(number)), "byteCount": .integer(Int64(number * 100)),
            ]), location: SourceLocation(file: "uploads", line: number)), schema: upload, namespace: 0)
        }
        for name in ["work", "home", "家庭"] {
            _ = try graph.write(Record(values: values(tag, ["name": .string(name)]), location: SourceLocation(file: "tags")),
                                schema: tag, namespace: 0)
        }
        let tasks: [(Int64, [Int], [String])] = [(1, [1, 2], ["work", "家庭"]), (2, [3], ["work"]), (3, [4, 5], ["home", "work"]), (4, [], [])]
        for (id, attachments, tags) in tasks {
            _ = try graph.write(Record(
                values: values(task, ["taskID": .integer(id), "title": .string("task \(id)"), "priority": .integer(id),
                                      "dueDate": .date(500_000_000 + Double(id) * 86_400)]),
                location: SourceLocation(file: "tasks", line: Int(id)),
                links: [RecordLink(relationship: "attachments", targets: attachments.map { .match(attribute: "remotePath", value: .string("/u/\($0).jpg")) }),
                        RecordLink(relationship: "tags", targets: tags.map { .match(attribute: "name", value: .string($0)) })]),
                schema: task, namespace: 1)
        }
        _ = try graph.resolveLinks()
        try graph.writer.finish()
        return path
    }

    /// Item (root) and Book (below it); Note points at an Item (so it has a `Z1_ITEM` column) and
    /// has a one-to-one `pin`; Item's ordered `notes` gives Note a `Z_FOK_ITEM` column.
    public static let inheritance = ManagedObjectModel(name: "Shelf", entities: [
        Entity(name: "Item", attributes: [Attribute(name: "title", type: .string, isOptional: false)],
               relationships: [Relationship(name: "notes", destinationEntity: "Note", inverseName: "item", isToMany: true, isOrdered: true)]),
        Entity(name: "Book", parentName: "Item", attributes: [Attribute(name: "isbn", type: .string)]),
        Entity(name: "Note", attributes: [Attribute(name: "text", type: .string)],
               relationships: [Relationship(name: "item", destinationEntity: "Item", inverseName: "notes"),
                               Relationship(name: "pin", destinationEntity: "Pin", inverseName: "note")]),
        Entity(name: "Pin", attributes: [Attribute(name: "label", type: .string)],
               relationships: [Relationship(name: "note", destinationEntity: "Note", inverseName: "pin")]),
    ])

    /// Items 1 (Item) and 2 (Book); notes 3, 4 on the book, 5 on the item; note 3 pinned by pin 1.
    public static func makeInheritance(in folder: String) throws -> String {
        let path = folder + "/Shelf.sqlite"
        let model = inheritance
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                   versionIdentifiers: [""])
        func insert(_ entity: String, _ values: [String: StoreValue]) throws -> Int64 {
            let inserter = try store.inserter(for: entity)
            return try inserter.insert(inserter.columns.map { values[$0.name] ?? .null })
        }
        let item = try insert("Item", ["ZTITLE": .text("a box")])
        let book = try insert("Book", ["ZTITLE": .text("a book"), "ZISBN": .text("978-0")])
        let pin = try insert("Pin", ["ZLABEL": .text("top")])
        let first = try insert("Note", ["ZTEXT": .text("one"), "ZITEM": .integer(book), "Z1_ITEM": .integer(2), "Z_FOK_ITEM": .integer(2048),
                                        "ZPIN": .integer(pin)])
        _ = try insert("Note", ["ZTEXT": .text("two"), "ZITEM": .integer(book), "Z1_ITEM": .integer(2), "Z_FOK_ITEM": .integer(3072)])
        _ = try insert("Note", ["ZTEXT": .text("three"), "ZITEM": .integer(item), "Z1_ITEM": .integer(1), "Z_FOK_ITEM": .integer(2048)])
        try store.finish()
        // The pin points back at its note: a key the writer only knows once the note is in.
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute("UPDATE ZPIN SET ZNOTE = \(first) WHERE Z_PK = \(pin)")
        try database.close()
        return path
    }

    /// A copy of a store with `sql` applied to it.
    public static func broken(_ path: String, _ label: String, _ sql: String) throws -> String {
        let copy = path.replacingOccurrences(of: ".sqlite", with: "-\(label).sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let database = try SQLiteDatabase(path: copy, mode: .readWrite)
        try database.execute(sql)
        try database.close()
        return copy
    }

    /// A copy of a store in which `sql` changed the table of `index` but not the index: the index
    /// is made to hold no row (`WHERE 0`, or `AND 0` after a partial index's clause) while `sql`
    /// runs, then given its statement back through `PRAGMA writable_schema`, so it keeps its
    /// entries as they were. SQLite's quick_check passes the copy; its integrity_check names the
    /// rows missing from the index.
    public static func staleIndex(_ path: String, _ label: String, index: String, _ sql: String) throws -> String {
        let copy = try broken(path, label, "SELECT 1")
        func rewrite(_ statement: String) throws {
            let database = try SQLiteDatabase(path: copy, mode: .readWrite)
            let version = try #require(try database.scalarInteger("PRAGMA schema_version"))
            try database.execute("PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = '\(statement.replacingOccurrences(of: "'", with: "''"))' "
                + "WHERE name = '\(index)'; PRAGMA schema_version = \(version + 1)")
            try database.close()
        }
        let reading = try SQLiteDatabase(path: copy, mode: .readOnly)
        let original = try #require(try reading.scalarText("SELECT sql FROM sqlite_master WHERE name = '\(index)'"))
        try reading.close()
        try rewrite(original + (original.uppercased().contains(" WHERE ") ? " AND 0" : " WHERE 0"))
        let database = try SQLiteDatabase(path: copy, mode: .readWrite)
        try database.execute(sql)
        try database.close()
        try rewrite(original)
        return copy
    }

    /// SQL giving rows `first` and `second` of `table` each other's `columns`, their `Z_PK` and
    /// every other column left as they are: two objects that swapped their values while their
    /// relationships stayed with their keys.
    public static func swapSQL(table: String, columns: [String], rows first: Int64, _ second: Int64) -> String {
        let assignments = columns.map { "\($0) = (SELECT \($0) FROM swapped WHERE swapped.Z_PK = \(first + second) - \(table).Z_PK)" }
        return "CREATE TEMP TABLE swapped AS SELECT * FROM \(table) WHERE Z_PK IN (\(first), \(second)); "
            + "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK IN (\(first), \(second)); DROP TABLE swapped"
    }

    /// The columns of `entity`'s stored attributes (inherited ones included) in `model`.
    public static func attributeColumns(of entity: String, in model: ManagedObjectModel) -> [String] {
        model.allAttributes(of: entity).filter { !$0.isTransient && $0.type.sqlColumnType != nil }.map { "Z" + $0.name.uppercased() }
    }

    /// A copy whose metadata names another hash for `entity`.
    public static func withCorruptHash(_ path: String, entity: String) throws -> String {
        let copy = try broken(path, "hashes", "SELECT 1")
        let database = try SQLiteDatabase(path: copy, mode: .readWrite)
        let read = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        guard try read.step(), let bytes = read.bytes(at: 0), case .dictionary(var metadata) = try PropertyList.decode(bytes),
              case .dictionary(var hashes)? = metadata["NSStoreModelVersionHashes"] else {
            throw VerifyTestError.noMetadata
        }
        read.finalize()
        hashes[entity] = .data([UInt8](repeating: 7, count: 32))
        metadata["NSStoreModelVersionHashes"] = .dictionary(hashes)
        let write = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        try write.bindBlob(try BinaryPropertyListWriter().encode(.dictionary(metadata)), at: 1)
        try write.run()
        write.finalize()
        try database.close()
        return copy
    }

    public enum VerifyTestError: Error { case noMetadata }
}
