import Ferry
import FerryModel
import FerryStore

/// Arbitrary bytes as a Core Data store: what `ferry inspect STORE` does (metadata, model cache,
/// counts read and counted with plain SQL), the value scan of verification over every table (read
/// from the file's own pages by `TableFileScan`), then every record of every entity of the model
/// the store carries.
enum StoreTarget {
    static func store(_ bytes: [UInt8]) {
        let path = ScratchFile.store(bytes, as: "Fuzz.sqlite")
        _ = try? StoreReport(path: path, bundlePath: nil)
        scanValues(path)
        guard let store = try? CoreDataStoreReader(path: path), let cache = try? store.modelCache(),
              let model = try? ModelArchiveDecoder.decodeModelCache(cache, name: "Fuzz", limit: 16 << 20),
              let reader = try? store.records(model: model) else { return }
        for entity in model.entities {
            guard let cursor = try? reader.records(of: entity.name) else { continue }
            var rows = 0
            while rows < 10_000, let record = try? cursor.next() {
                _ = record
                rows += 1
            }
        }
    }

    /// Every table with its columns, counted as verification counts them: every storage rule
    /// asked of every column (the integers and blob lengths too).
    private static func scanValues(_ path: String) {
        guard let database = try? SQLiteDatabase(path: path, mode: .readOnly),
              let tables = try? database.prepare("SELECT name FROM sqlite_master WHERE type = 'table'") else { return }
        var names: [String] = []
        while (try? tables.step()) == true, names.count < 64 { names.append(tables.string(at: 0) ?? "") }
        let rules: [StorageRule?] = [nil, StorageRule(.integer16), StorageRule(.double), StorageRule(.uuid), .optimisticLockVersion]
        for table in names {
            guard let info = try? database.prepare("PRAGMA table_info(\(SQLIdentifier.quoted(table)))")
            else { continue }
            var conditions: [ColumnCondition] = []
            while (try? info.step()) == true, conditions.count < 200 {
                let column = info.string(at: 1) ?? ""
                conditions += rules.map { ColumnCondition(column: column, entityNumbers: [1, 2], rule: $0) }
            }
            _ = try? ValueScan(ScanConnection(path: path, sampleLimit: 2)).count(table, numbers: [0, 1, 2, 3], conditions: conditions)
        }
    }
}
