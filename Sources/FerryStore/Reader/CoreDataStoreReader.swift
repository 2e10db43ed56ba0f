import FerryFormats
import FerryModel

/// Opens a Core Data SQLite store read-only and reads what describes it: the metadata, the
/// `Z_PRIMARYKEY` rows and the schema. Records are read through a model with `records(model:)`.
///
/// The source is never changed; committed data in a `-wal` is read (see `SQLiteDatabase`).
/// A reader and everything made from it are used by one thread.
public final class CoreDataStoreReader {
    public let path: String
    public let metadata: StoreMetadataInfo
    /// `Z_PRIMARYKEY`, in `Z_ENT` order.
    public let primaryKeys: [PrimaryKeyEntry]
    public let schema: DatabaseSchema
    let database: SQLiteDatabase
    /// The store file's stamp (`StoreFileStamp`) just before it was opened.
    public let openingStamp: String?

    /// Whether the store is read as fixed bytes (opened immutable, or a private copy of it and
    /// its journal) rather than as another connection of a live WAL: SQLite's locks then keep
    /// nothing consistent, and a process that writes or checkpoints the file meanwhile (one that
    /// opened it after this reader did) would have it read two states. `changedSinceOpening`
    /// tells whether that happened.
    public var readsFixedBytes: Bool { database.sameBytes != nil }

    /// Whether the store, read as fixed bytes, changed on disk since just before it was opened.
    public var changedSinceOpening: Bool { readsFixedBytes && fileStamp() != openingStamp }

    /// Opens the store and reads its metadata, primary keys and schema.
    /// - Throws: `StoreReaderError`: `.cannotOpen`, `.notSQLite`, `.corrupt`, `.notCoreDataStore`,
    ///   `.invalidMetadata`.
    public init(path: String) throws(StoreReaderError) {
        self.path = path
        openingStamp = StoreFileStamp.stamp(of: path)
        let database = try StoreFile.open(path)
        let schema = try StoreReaderError.sqlite { () throws(SQLiteError) in try DatabaseSchema.read(from: database) }
        self.database = database
        self.schema = schema
        let missing = ["Z_PRIMARYKEY", "Z_METADATA"].filter { schema.table(named: $0) == nil }
        guard missing.isEmpty else { throw .notCoreDataStore(path: path, missingTables: missing) }
        primaryKeys = try Self.readPrimaryKeys(database, path: path)
        metadata = try Self.readMetadata(database)
    }

    /// The persistent-history transactions the store has recorded: `Z_MAX` of Core Data's own
    /// `TRANSACTION` entity (16002); 0 when the store keeps no history.
    public var historyTransactions: Int64 {
        primaryKeys.first { $0.isSystemEntity && $0.name == "TRANSACTION" }?.maxPrimaryKey ?? 0
    }

    /// The `Z_PRIMARYKEY` row of an entity, by `Z_NAME`.
    public func primaryKeyEntry(named name: String) -> PrimaryKeyEntry? {
        primaryKeys.first { $0.name == name }
    }

    /// Rows of an entity and its sub-entities, by `Z_PRIMARYKEY` alone (no model needed): the
    /// root's table is `Z` + the root's uppercased name, rows are counted by `Z_ENT`.
    public func count(for entity: String) throws(StoreReaderError) -> Int64 {
        guard let entry = primaryKeyEntry(named: entity) else { throw .unknownEntity(path: path, entity: entity) }
        var root = entry
        var seen: Set<Int64> = [root.entityNumber]
        while root.superNumber != 0, let parent = primaryKeys.first(where: { $0.entityNumber == root.superNumber }),
              seen.insert(parent.entityNumber).inserted {
            root = parent
        }
        let table = "Z" + root.name.uppercased()
        guard schema.table(named: table) != nil else { throw .missingTable(path: path, table: table, owner: "entity \(entity)") }
        return try countRows(table: table, entityNumbers: descendants(of: entry.entityNumber))
    }

    /// What this store says about its own layout: its entity numbers and tables.
    public var facts: ExistingStoreFacts {
        ExistingStoreFacts(primaryKeys: primaryKeys, tableNames: Set(schema.tables.map(\.name)),
                           frameworkVersion: metadata.frameworkVersion)
    }

    /// `model` laid out as this store was written: rows are told apart by the store's own
    /// `Z_PRIMARYKEY` numbers, never by numbers recomputed from the model.
    public func layout(for model: ManagedObjectModel) throws(StoreReaderError) -> StoreLayout {
        do { return try StoreLayout(model: model, existing: facts) } catch {
            throw .invalidModel(path: path, reason: ErrorText.reason(of: error, at: path))
        }
    }

    /// The store's rows counted with plain SQL (`StoreCensus`) on this reader's connection, so
    /// inside a read transaction begun with `beginRead()` it counts the state the records are
    /// read from.
    public func census() throws(StoreReaderError) -> StoreCensus {
        try StoreReaderError.sqlite { () throws(SQLiteError) in try StoreCensus(database: database) }
    }

    /// Begins the census for a job that reads records meanwhile (`CensusWork`): on a second
    /// connection on a worker thread when one reads exactly this connection's bytes, otherwise
    /// taken here at once, on this connection (inside a read transaction begun with
    /// `beginRead()`, it counts the state the records are read from).
    public func startCensus() -> CensusWork {
        if let reopening = database.sameBytes { return CensusWork(reopening: reopening) }
        return CensusWork(counted: Result { () throws(StoreReaderError) in try census() })
    }

    /// Checks `model` against the store (a table for every entity and relationship, a column for
    /// every stored property) and returns a reader of its records.
    public func records(model: ManagedObjectModel) throws(StoreReaderError) -> StoreRecordReader {
        try StoreRecordReader(store: self, model: model)
    }

    /// `SELECT count(*) FROM table WHERE Z_ENT IN (numbers)`.
    func countRows(table: String, entityNumbers: [Int64]) throws(StoreReaderError) -> Int64 {
        let sql = "SELECT count(*) FROM \(SQLIdentifier.quoted(table)) WHERE Z_ENT IN (\(entityNumbers.map(String.init).joined(separator: ", ")))"
        return try StoreReaderError.sqlite { () throws(SQLiteError) in try database.scalarInteger(sql) } ?? 0
    }

    /// An entity number and the numbers below it, by `Z_SUPER`.
    private func descendants(of number: Int64) -> [Int64] {
        var result = [number]
        var next = 0
        while next < result.count {
            let parent = result[next]
            for entry in primaryKeys where entry.superNumber == parent && !result.contains(entry.entityNumber) {
                result.append(entry.entityNumber)
            }
            next += 1
        }
        return result
    }

    /// The rows of `Z_PRIMARYKEY`, by entity number. Core Data gives each entity one number and
    /// one row (`Z_ENT` is the table's primary key); a store that lists a number or a name twice
    /// is refused, since every reader of its rows would take one entity for another.
    static func readPrimaryKeys(_ database: SQLiteDatabase, path: String) throws(StoreReaderError) -> [PrimaryKeyEntry] {
        let entries = try StoreReaderError.sqlite { () throws(SQLiteError) in
            let rows = try database.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            var entries: [PrimaryKeyEntry] = []
            while try rows.step() {
                entries.append(PrimaryKeyEntry(entityNumber: rows.int64(at: 0), name: rows.string(at: 1) ?? "",
                                               superNumber: rows.int64(at: 2), maxPrimaryKey: rows.int64(at: 3)))
            }
            return entries
        }
        var numbers: Set<Int64> = [], names: Set<String> = []
        for entry in entries {
            guard numbers.insert(entry.entityNumber).inserted else {
                throw .inconsistentBookkeeping(path: path, reason: "Z_PRIMARYKEY lists entity number \(entry.entityNumber) twice")
            }
            guard names.insert(entry.name).inserted else {
                throw .inconsistentBookkeeping(path: path, reason: "Z_PRIMARYKEY lists entity \(entry.name) twice")
            }
        }
        return entries
    }

    private static func readMetadata(_ database: SQLiteDatabase) throws(StoreReaderError) -> StoreMetadataInfo {
        let row = try StoreReaderError.sqlite { () throws(SQLiteError) -> (String?, [UInt8]?)? in
            let statement = try database.prepare("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
            guard try statement.step() else { return nil }
            return (statement.string(at: 0), statement.bytes(at: 1))
        }
        guard let row else { throw .invalidMetadata(path: database.path, reason: "no row with Z_VERSION 1") }
        return try StoreMetadataInfo(uuidText: row.0, plist: row.1, path: database.path)
    }
}
