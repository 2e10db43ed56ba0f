import FerryFormats
import FerryModel

/// A Core Data store opened read-write together with the model it was written with, for
/// deletes and updates. Every change runs in one SQLite transaction (`BEGIN IMMEDIATE` …
/// `COMMIT`) on the store file itself: SQLite makes it atomic and durable in the store's own
/// journal mode (WAL stays WAL), and any failure rolls everything back.
///
/// One store and what is made from it are used by one thread.
public final class MutableStore {
    public let path: String
    public let model: ManagedObjectModel
    public let layout: StoreLayout
    let database: SQLiteDatabase
    let compiler: PredicateCompiler
    /// The independent check every change must pass before it commits (none: not checked).
    public var changeCheck: ChangeCheck?

    /// Opens the store for writing, or with `planningOnly` for working out what a change would do
    /// (a dry run): read-only, so the store's files stay as they are (closing a writing
    /// connection checkpoints a WAL store's `-wal` into it). The model is not checked against the
    /// store's metadata here (the caller chooses it); every table and column it needs must exist,
    /// every entity table keep `Z_PK` as its rowid, and the store hold no trigger but Core Data's
    /// (`StoreTriggers`: another one would run inside the change, unseen by its plan).
    public init(path: String, model: ManagedObjectModel, planningOnly: Bool = false) throws(StoreMutationError) {
        do { try StoreFile.checkHeader(path) } catch { throw .store(error) }
        let database: SQLiteDatabase
        do { database = try SQLiteDatabase(path: path, mode: planningOnly ? .readOnly : .readWrite) } catch { throw .store(StoreReaderError(error)) }
        database.keepsWriteAheadLogOnClose()
        let schema: DatabaseSchema
        do { schema = try DatabaseSchema.read(from: database) } catch { throw .store(StoreReaderError(error)) }
        let primaryKeys: [PrimaryKeyEntry]
        do { primaryKeys = try CoreDataStoreReader.readPrimaryKeys(database, path: path) } catch { throw .store(error) }
        do {
            layout = try StoreLayout(model: model, existing: ExistingStoreFacts(primaryKeys: primaryKeys,
                                                                                tableNames: Set(schema.tables.map(\.name))))
        } catch {
            throw .store(.invalidModel(path: path, reason: ErrorText.reason(of: error, at: path)))
        }
        // Only the tables a change reads or writes: stores older than Core Data's model cache
        // (iOS 5) have no `Z_MODELCACHE`, and a change never touches it.
        for table in layout.tables where table.kind != .bookkeeping && schema.table(named: table.name) == nil {
            throw .store(.missingTable(path: path, table: table.name, owner: "the model"))
        }
        if let (table, problem) = schema.firstKeyProblem(in: layout) { throw .store(.keyNotRowID(path: path, table: table, reason: problem)) }
        let foreign = StoreTriggers(schema, layout: layout).foreign
        guard foreign.isEmpty else { throw .foreignTriggers(path: path, foreign) }
        self.path = path
        self.model = model
        self.database = database
        compiler = PredicateCompiler(model: model, layout: layout)
        try StoreMutationError.sqlite { () throws(SQLiteError) in try PredicateSQLFunctions.register(on: database) }
    }

    /// The objects of `entity` (and its sub-entities) that `predicate` matches, by `Z_PK`.
    public func matchingObjects(of entity: String, where predicate: FetchPredicate?,
                                variables: [String: PredicateValue] = [:]) throws(StoreMutationError) -> [ObjectKey] {
        let compiled = try compile(predicate, entity: entity, variables: variables)
        let names = layout.entityNames
        return try StoreMutationError.sqlite { () throws(SQLiteError) in
            let statement = try database.prepare(
                "SELECT t0.Z_PK, t0.Z_ENT FROM \(compiled.fromClause) WHERE \(compiled.whereClause) ORDER BY t0.Z_PK")
            for (offset, value) in compiled.parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
            var keys: [ObjectKey] = []
            while try statement.step() {
                keys.append(ObjectKey(entity: names[statement.int64(at: 1)] ?? entity, primaryKey: statement.int64(at: 0)))
            }
            return keys
        }
    }

    /// The predicate compiled for `entity`; nil matches every object.
    func compile(_ predicate: FetchPredicate?, entity: String,
                 variables: [String: PredicateValue]) throws(StoreMutationError) -> CompiledPredicate {
        do {
            return try compiler.compile(predicate ?? .constant(true), entity: entity, variables: variables)
        } catch { throw .predicate(error) }
    }

    /// Runs `body` in one write transaction; a thrown error rolls it back, and so does a change
    /// that adds a failure to what `changeCheck` finds (`StoreMutationError.changeBreaksStore`)
    /// beyond what `expected` says its result adds on purpose.
    ///
    /// The store is checked once, after the change, when nothing beyond `expected` is found (a
    /// sound store). Otherwise the change is undone to a savepoint, the store checked as it was,
    /// and the change made again: what it adds is what the two findings differ by.
    func transaction<T>(expected: (T) -> [ChangeFinding: Int64] = { _ in [:] },
                        _ body: () throws(StoreMutationError) -> T) throws(StoreMutationError) -> T {
        do { try database.beginImmediate() } catch { throw .locking(error, path: path) }
        do throws(StoreMutationError) {
            try StoreMutationError.sqlite { () throws(SQLiteError) in try database.execute("SAVEPOINT change") }
            var result = try body()
            if let changeCheck {
                let connection = ScanConnection(database: database, sampleLimit: 1)
                var after = changeCheck.findings(connection)
                var before: [ChangeFinding: Int64] = [:]
                if !ChangeCheck.added(before: before, after: after, expected: expected(result)).isEmpty {
                    try StoreMutationError.sqlite { () throws(SQLiteError) in try database.execute("ROLLBACK TO change") }
                    before = changeCheck.findings(connection)
                    result = try body()
                    after = changeCheck.findings(connection)
                }
                let added = ChangeCheck.added(before: before, after: after, expected: expected(result))
                guard added.isEmpty else { throw .changeBreaksStore(added) }
            }
            do { try database.commit() } catch { throw .locking(error, path: path) }
            return result
        } catch {
            if database.isInTransaction { try? database.rollback() }
            throw error
        }
    }

    /// The table holding rows of `entity`.
    func table(of entity: String) throws(StoreMutationError) -> TableLayout {
        guard let table = layout.table(forEntity: entity) else { throw .predicate(.unknownEntity(entity)) }
        return table
    }

    /// `Z_ENT` numbers of `entity` and its sub-entities, as an SQL list.
    func hierarchyNumbers(_ entity: String) -> String {
        model.hierarchy(below: entity).compactMap { layout.entityNumbers[$0.name] }.map(String.init).joined(separator: ", ")
    }
}
