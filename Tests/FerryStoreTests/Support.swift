import CSQLite
import FerryStore
import FerryTestSupport
import FoundationEssentials

/// The external corpus (`../shared/corpus` beside the package root), found from this file's path.
enum Corpus {
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3) // Support.swift, FerryStoreTests, Tests
        return components.joined(separator: "/") + "/../shared/corpus"
    }()

    static func path(_ relative: String) -> String { root + "/coredata/" + relative }

    static func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }
}

/// The schema of a database as `sqlite_master` and `PRAGMA table_info` report it.
struct SchemaSnapshot: Equatable {
    /// Table name → CREATE statement.
    var tables: [String: String] = [:]
    /// Index name → CREATE statement (automatic indexes left out).
    var indexes: [String: String] = [:]
    /// Table name → (column name, declared type) in order.
    var columns: [String: [String]] = [:]

    init(path: String) throws {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let master = try database.prepare(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index')")
        while try master.step() {
            guard let type = master.string(at: 0), let name = master.string(at: 1), let sql = master.string(at: 2) else { continue }
            if type == "table" { tables[name] = sql } else { indexes[name] = sql }
        }
        for table in tables.keys {
            let info = try database.prepare("PRAGMA table_info(\(table))")
            var list: [String] = []
            while try info.step() { list.append("\(info.string(at: 1) ?? "?") \(info.string(at: 2) ?? "?")") }
            columns[table] = list
        }
    }

    /// The snapshot a layout promises.
    init(layout: StoreLayout) {
        for table in layout.tables {
            tables[table.name] = table.createStatement
            columns[table.name] = table.columns.map { "\($0.name) \($0.declaredType)" }
        }
        for index in layout.indexes { indexes[index.name] = index.createStatement }
    }
}

/// A fresh path in the temporary directory; the file does not exist yet.
func temporaryStorePath(_ name: String) -> String {
    TestProcessFolder.path + "/ferry-store-tests-\(UUID().uuidString)-\(name).sqlite"
}

/// Removes a store and its `-wal` and `-shm`.
func removeStoreFiles(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

/// Every row of `table`, by `Z_PK`, as its `expressions` (SQL over the row, such as `quote(ZNAME)`,
/// which tells text, blob, integer and real apart) joined by spaces.
func rowsAsText(_ table: String, _ expressions: [String], in path: String) throws -> [String] {
    let database = try SQLiteDatabase(path: path, mode: .readOnly)
    let rows = try database.prepare("SELECT \(expressions.joined(separator: ", ")) FROM \(table) ORDER BY Z_PK")
    var result: [String] = []
    while try rows.step() {
        result.append((0..<rows.columnCount).map { rows.string(at: $0) ?? "?" }.joined(separator: " "))
    }
    return result
}

/// A fixed 32-byte hash per entity name, for stores whose hashes do not matter to the test.
func placeholderHashes(for names: [String]) -> [String: [UInt8]] {
    Dictionary(uniqueKeysWithValues: names.enumerated().map { ($0.element, [UInt8](repeating: UInt8($0.offset + 1), count: 32)) })
}
