import FerryFormats
import FerryModel
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a new Core Data SQLite store, all or nothing.
///
/// The store is built in a temporary file beside the target (`<path>.ferry-<UUID>.tmp`, an
/// `OwnedTemporary`: locked while this process lives, removed on every error path and on SIGINT
/// or SIGTERM, and swept by the next writer to the same target after a `kill -9`) with a
/// rollback journal in a file (pages a transaction changes are copied there, not to memory, so
/// a large set-based update stays within bounded memory; new pages appended by inserts are not
/// journaled) and no syncs: nothing else reads it while it is built, and a crash leaves only the
/// temporary files behind. Rows go in through `EntityInserter`s, one transaction
/// per `batchSize` rows. `finish()` commits, switches the file to WAL journaling (what Core Data
/// uses; the mode is stored in the file), closes it (which checkpoints and removes the `-wal`),
/// syncs it to disk and renames it to the target (over an existing one only when asked). The `-wal`
/// of a store it replaces is first folded into that store's file (`WriteAheadLogFold`: the store
/// keeps every commit until the new one is in place), then removed with its `-shm`, as it would
/// otherwise be replayed into the new file.
///
/// One writer, its inserters and its connection are used by one thread. The fields touched for every row skip
/// the run-time exclusivity checks (`@exclusivity(unchecked)`).
public final class CoreDataStoreWriter {
    /// The final store path.
    public let path: String
    /// Where the store is built until `finish()`.
    public var temporaryPath: String { temporary.path }
    let temporary: OwnedTemporary
    public let layout: StoreLayout
    /// Rows per transaction.
    public let batchSize: Int

    let model: ManagedObjectModel
    /// The metadata written into `Z_METADATA`; nil when appending to a store made elsewhere.
    private var metadata: StoreMetadata?
    /// The UUID of the store it creates (the identity of every object's URI); nil when appending.
    public var storeUUID: StoreUUID? { metadata?.storeUUID }
    /// The metadata of the store appended to, every key as it was read: only the application's
    /// own keys are ever set in it (`setMetadataEntries`).
    private var appendedMetadata: [String: PropertyListValue]?
    @exclusivity(unchecked) private var database: SQLiteDatabase?
    /// Statements to finalize before closing.
    private var statements: [SQLiteStatement] = []
    /// The `Z_PK` counter of each root entity that has one yet.
    private var primaryKeys: [String: PrimaryKeyCounter] = [:]
    /// The files of values kept outside their rows (`keepOutside`), written beside the store
    /// being built and placed beside the store with it.
    var externalFiles: Set<String> = []
    /// What `finish()` could not do about the files of the replaced store's values that the new
    /// store does not name (`filesLetGo`), each a sentence: they are left. The store is in place.
    public internal(set) var externalFileWarnings: [String] = []
    @exclusivity(unchecked) private var rowsInBatch = 0
    /// When appending: the original store as it was copied, which must not change before the
    /// copy replaces it (another process's commits would be lost).
    private var appendedOriginal: StoreFileStamp?
    /// What was at the destination when the writer began (nothing: a stamp of nothing), which a
    /// new store replaces only if it is still there as it was: a store another run appended to
    /// meanwhile is not replaced by a store built from what it was before.
    private let destinationAtStart: StoreFileStamp
    /// When appending: the highest `Z_PK` of each root's rows before this writer's (nothing
    /// stored: none).
    private var keysBefore: [String: Int64] = [:]
    /// Whether `finish()` renamed the store into place (`discard()` then leaves it).
    private var renamed = false
    /// When appending: this run's turn on the store, held until the copy replaces it.
    private var appendTurn: AppendTurn?
    /// Per entity, the objects that were to keep their `Z_PK` and got another, as an object of
    /// another entity in the same table had it (a hierarchy the model version changed): URIs
    /// saved for them no longer name them.
    public private(set) var renumberedObjects: [String: Int] = [:]
    /// How the values of derived attributes are left once the rows are in.
    public var derivedValues = DerivedValues.derived
    /// Whether the derived attributes have been completed (`completeDerivedAttributes()`).
    private var derivedAttributesComplete = false
    /// The flush `commit()` started (its result the file's open descriptor), until `finish()` or
    /// `discard()` waits for it.
    private var earlyFlush: BackgroundWork<Int32, StoreWriterError>?

    /// Creates the store file with every table, index and bookkeeping row, ready for rows.
    public static func create(
        at path: String, model: ManagedObjectModel, versionHashes: [String: [UInt8]],
        versionIdentifiers: [String], storeUUID: StoreUUID = StoreUUID(),
        hashesDigest: [UInt8]? = nil, checksum: [UInt8]? = nil, batchSize: Int = 10_000
    ) throws(StoreWriterError) -> CoreDataStoreWriter {
        let metadata = StoreMetadata(storeUUID: storeUUID, versionHashes: versionHashes,
                                     versionIdentifiers: versionIdentifiers,
                                     hashesDigest: hashesDigest, checksum: checksum)
        return try create(at: path, model: model, metadata: metadata, batchSize: batchSize)
    }

    /// Creates the store file from ready-made metadata.
    public static func create(at path: String, model: ManagedObjectModel, metadata: StoreMetadata,
                              batchSize: Int = 10_000) throws(StoreWriterError) -> CoreDataStoreWriter {
        let layout: StoreLayout
        do { layout = try StoreLayout(model: model) } catch { throw .layout(error) }
        try checkVersionHashes(metadata.versionHashes, model: model)
        let plist = try encodeMetadataPlist(metadata)
        let modelCache: [UInt8]
        do { modelCache = try ModelArchiveEncoder.encodeModelCache(model) } catch {
            throw .modelCacheEncoding(error.description)
        }
        let writer = try CoreDataStoreWriter(path: path, model: model, layout: layout, batchSize: batchSize)
        writer.metadata = metadata
        do {
            try writer.createSchema(metadata: metadata, plist: plist, modelCache: modelCache)
        } catch {
            writer.discard()
            throw error
        }
        return writer
    }

    /// Plays back a transaction a crashed writer left in the store's rollback journal, by opening
    /// the store as SQLite does (its first read rolls a hot journal back). False when the journal
    /// still holds one: a live writer's, in progress.
    private static func rollBackCrashedWriter(of path: String) throws(StoreWriterError) -> Bool {
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWrite)
            try database.close()
        } catch {
            throw .existingStore(path: path, reason: "its rollback journal holds a transaction that could not be rolled back: \(error.description)")
        }
        return !RollbackJournal.holdsTransaction(of: path)
    }

    /// `ReadOnlySource.hasLiveConnection`, its want of descriptors the writer's failure to open a file.
    private static func hasLiveConnection(_ path: String) throws(StoreWriterError) -> Bool {
        do { return try ReadOnlySource.hasLiveConnection(path) } catch {
            throw .fileSystem(path: error.path, operation: "open", errno: error.cause == .systemDescriptorLimit ? ENFILE : EMFILE)
        }
    }

    /// Opens an existing store of exactly this model version to add rows to it, all or nothing:
    /// the store (with its `-wal`) is copied beside itself, rows go into the copy, and `finish()`
    /// renames the copy over the original. `Z_PK`s continue from `Z_MAX`; the store UUID stays.
    /// A store another process has open is refused, and `finish()` refuses to replace one that
    /// changed since it was copied: another writer's commits are never lost. Runs appending to
    /// one store take turns (`AppendTurn`: a second is refused), a transaction a crashed writer
    /// left in the store's rollback journal is rolled back first (as SQLite does on the next
    /// open; copied as it was, it became committed), and a symbolic link is followed to the
    /// store it names, which the copy then replaces. A store with an entity table whose `Z_PK`
    /// is no rowid (`DatabaseSchema.keyProblem(of:)`) is refused, as every reader refuses it.
    public static func append(to given: String, model: ManagedObjectModel, batchSize: Int = 10_000)
        throws(StoreWriterError) -> CoreDataStoreWriter
    {
        // Through a symbolic link: the store it names (the one an app opens through it).
        let path = FileInfo.linkTarget(of: given)
        // Rolled back before the turn is taken: where `flock` and `fcntl` locks meet (the BSDs),
        // the turn would keep SQLite's own connection from the store.
        if RollbackJournal.holdsTransaction(of: path), try !rollBackCrashedWriter(of: path) {
            throw .existingStore(path: path, reason: "another process is writing it (its rollback journal holds a transaction in progress); "
                + "appending would lose what it writes: nothing was written, run again")
        }
        // Its last commits folded into its file (`WriteAheadLogFold`), before the turn for the same
        // reason: the copy then holds them in its file, and `finish()` finds nothing to fold.
        if try !hasLiveConnection(path) { try WriteAheadLogFold.fold(path) }
        let turn = try AppendTurn.take(path)
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .existingStore(path: path, reason: ErrorText.reason(of: error, at: path)) }
        let layout: StoreLayout
        do { layout = try StoreLayout(model: model, existing: store.facts) } catch { throw .layout(error) }
        if let (table, problem) = store.schema.firstKeyProblem(in: layout) {
            throw .existingStore(path: path, reason: "\(StoreReaderError.keyNotRowID(path: path, table: table, reason: problem))")
        }
        let expected = VersionHasher.hashes(of: model)
        let differing = expected.differingEntities(from: store.metadata.versionHashes)
        guard differing.isEmpty else {
            throw .existingStore(path: path, reason: "it is not a store of model version '\(model.name)' (entities that differ: \(differing.joined(separator: ", ")))")
        }
        if try hasLiveConnection(path) {
            throw .existingStore(path: path, reason: "another process has it open; appending would lose what it writes (close it first)")
        }
        let original = StoreFileStamp(path)
        let temporary = try makeTemporary(beside: path)
        do {
            try temporary.fill(from: path)
            if DurableFile.exists(path + "-wal") { try temporary.fill(from: path + "-wal", into: temporary.path + "-wal") }
        } catch {
            temporary.remove()
            if WriteFailure(errno: error.code, path: path) != nil { throw .fileSystem(path: path, operation: "write", errno: error.code) }
            throw .existingStore(path: path, reason: "cannot copy it to write beside it: \(error.description)")
        }
        let writer = try CoreDataStoreWriter(path: path, temporary: temporary, model: model, layout: layout, batchSize: batchSize)
        writer.appendedOriginal = original
        writer.appendTurn = turn
        writer.appendedMetadata = store.metadata.propertyList
        do {
            let database = try writer.openDatabase()
            try StoreWriterError.sqlite { () throws(SQLiteError) in
                try database.execute("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=TRUNCATE; PRAGMA synchronous=OFF")
            }
            for entry in store.primaryKeys where entry.superNumber == 0 {
                guard let name = layout.entityNumbers.first(where: { $0.value == Int(entry.entityNumber) })?.key else { continue }
                // Keys continue above every row there, should `Z_MAX` lag behind the table.
                var last = entry.maxPrimaryKey
                if let table = layout.table(forEntity: name) {
                    let highest = try StoreWriterError.sqlite { () throws(SQLiteError) in
                        try database.scalarInteger("SELECT max(Z_PK) FROM \(SQLIdentifier.quoted(table.name))")
                    }
                    last = max(last, highest ?? 0)
                }
                writer.primaryKeys[name] = PrimaryKeyCounter(root: name, last: last)
                writer.keysBefore[name] = last
            }
            try StoreWriterError.sqlite { () throws(SQLiteError) in
                try StoredObjectVersions.watch(database, layout: layout, model: model, keysBefore: writer.keysBefore)
            }
        } catch {
            writer.discard()
            throw error
        }
        return writer
    }

    private init(path: String, temporary: OwnedTemporary? = nil, model: ManagedObjectModel, layout: StoreLayout,
                 batchSize: Int) throws(StoreWriterError) {
        self.path = path
        destinationAtStart = StoreFileStamp(path)
        if let temporary {
            self.temporary = temporary
        } else {
            self.temporary = try Self.makeTemporary(beside: path)
        }
        self.model = model
        self.layout = layout
        self.batchSize = max(1, batchSize)
        do {
            database = try SQLiteDatabase(path: self.temporary.path, mode: .create, destination: path)
        } catch {
            self.temporary.remove()
            throw .sqlite(error)
        }
    }

    /// Sweeps the leftovers of dead runs to `path`, then creates and locks the file to build in.
    private static func makeTemporary(beside path: String) throws(StoreWriterError) -> OwnedTemporary {
        try refuseUnreplaceable(at: path)
        // A dead run's store goes with the values it had moved out of its rows (a restore's).
        for leftover in OwnedTemporary.sweep(beside: path, kind: .file) { removeBuiltExternalFiles(besideStore: leftover) }
        do {
            let temporary = try OwnedTemporary.create(beside: path, kind: .file)
            temporary.registerDatabaseFiles()
            return temporary
        } catch {
            throw .fileSystem(path: path, operation: "create a file beside", errno: error.code)
        }
    }

    /// Refuses, before any work, a destination that no store may replace: a folder (with
    /// `--force` the whole run happened and then failed at the rename), and a device, FIFO or
    /// socket (`--out /dev/null --force` replaced the device with a file), itself or at the end
    /// of its links; and one whose folder is not there (said as such, not as a file that could
    /// not be created beside it).
    public static func refuseUnreplaceable(at path: String) throws(StoreWriterError) {
        switch FileInfo.finalKind(atPath: path) {
        case .directory: throw .destinationIsFolder(path)
        // A link to one too (`/dev/stdout` → `/proc/self/fd/1` → a terminal): the rename would
        // replace the link, which the system needs.
        case .special: throw .destinationIsSpecial(path)
        case .regularFile: break
        case .symbolicLink, nil:
            let folder = FilePath.split(path).folder
            if FileInfo.finalKind(atPath: folder) == nil { throw .destinationFolderMissing(path, folder: folder) }
        }
    }

    deinit {
        discard()
    }

    // MARK: Rows

    /// An inserter for rows of one concrete entity. Several may be used in turn or interleaved.
    public func inserter(for entityName: String) throws(StoreWriterError) -> EntityInserter {
        guard let entity = model.entity(named: entityName), let number = layout.entityNumbers[entityName],
              let table = layout.table(forEntity: entityName), case .entity(let root, _) = table.kind else {
            throw .unknownEntity(entityName)
        }
        guard !entity.isAbstract else { throw .abstractEntity(entityName) }
        let columns = layout.columns(forEntity: entityName)
        let valueColumns = columns.filter { ![.primaryKey, .entityNumber, .optimisticLock].contains($0.role) }
        // Each row's Z_PK and Z_OPT, then its values, are parameters; Z_ENT is the same in every
        // row, so a constant. Appended rows have a NULL Z_PK, and new objects' a Z_OPT of 1
        // (`InsertStatements.Keys`).
        let entityNumber = String(number)
        var names: [String] = []
        var values: [String] = [], appended: [String] = [], appendedNew: [String] = []
        for (role, value, appendedValue, appendedNewValue) in [(ColumnRole.primaryKey, "?", "NULL", "NULL"), (.entityNumber, entityNumber, entityNumber, entityNumber),
                                                               (.optimisticLock, "?", "?", "1")] {
            guard let column = columns.first(where: { $0.role == role }) else { continue }
            names.append(column.name)
            values.append(value)
            appended.append(appendedValue)
            appendedNew.append(appendedNewValue)
        }
        names += valueColumns.map(\.name)
        let parameters = valueColumns.map { _ in "?" }
        values += parameters
        appended += parameters
        appendedNew += parameters
        let tagged = valueColumns.map { column -> Bool in
            guard case let .attribute(owner, name) = column.role else { return false }
            return model.entity(named: owner)?.attribute(named: name)?.allowsExternalBinaryDataStorage == true
        }
        return EntityInserter(writer: self, entityName: entityName, entityNumber: Int64(number), table: table.name,
                              primaryKeys: primaryKeyCounter(root: root), columns: valueColumns, tagged: tagged,
                              batch: try rowBatch(for: entityName, table: table.name, names: names,
                                                  rows: (values, appended: appended, appendedNew: appendedNew)))
    }

    /// The batch of an entity's rows, made with its statements on first use.
    /// `rows`: one row's values in the SQL, with its key bound, appended, and appended new.
    private func rowBatch(for entity: String, table: String, names: [String],
                          rows: (bound: [String], appended: [String], appendedNew: [String])) throws(StoreWriterError) -> RowBatch {
        if let known = batches[entity] { return known }
        // A table that enforces uniqueness reports a duplicate per row (`EntityRowWriter`).
        let enforcesUniqueness = layout.indexes.contains { $0.table == table && $0.isUnique }
        let statements = InsertStatements(prefix: "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES ",
                                          row: "(\(rows.bound.joined(separator: ", ")))",
                                          appendedRow: "(\(rows.appended.joined(separator: ", ")))",
                                          appendedNewRow: "(\(rows.appendedNew.joined(separator: ", ")))",
                                          parametersPerRow: rows.bound.filter { $0 == "?" }.count, batched: !enforcesUniqueness) { [unowned self] sql throws(StoreWriterError) in
            try prepare(sql)
        }
        // Only a table of one entity is written through its batch alone (a hierarchy's batches
        // share their root's table).
        var tableMax: Int64?
        if case .entity(_, let members)? = layout.table(named: table)?.kind,
           members.filter({ model.entity(named: $0)?.isAbstract == false }).count == 1 {
            let database = try openDatabase()
            tableMax = try StoreWriterError.sqlite { () throws(SQLiteError) in
                try database.scalarInteger("SELECT max(Z_PK) FROM \(table)") ?? 0
            }
        }
        let batch = RowBatch(statements: try statements.prepared(), tableMax: tableMax)
        batches[entity] = batch
        return batch
    }

    /// The `Z_PK` counter of a root entity's hierarchy, made on first use.
    private func primaryKeyCounter(root: String) -> PrimaryKeyCounter {
        if let counter = primaryKeys[root] { return counter }
        let counter = PrimaryKeyCounter(root: root)
        primaryKeys[root] = counter
        return counter
    }

    /// Opens the batch transaction when none is open.
    func beginRow() throws(StoreWriterError) {
        let database = try openDatabase()
        guard !database.isInTransaction else { return }
        do { try database.beginImmediate() } catch { throw .sqlite(error) }
    }

    /// Notes an object of `entity` that could not keep its `Z_PK` (`renumberedObjects`).
    func noteRenumbered(_ entity: String) {
        renumberedObjects[entity, default: 0] += 1
    }

    /// Counts a written row (its key is already in its counter) and commits when the batch is full.
    func rowWritten() throws(StoreWriterError) {
        rowsInBatch += 1
        if rowsInBatch >= batchSize { try commitBatch() }
    }

    /// Each entity's batch of rows staged for a multi-row insert (`rowBatch(for:)`).
    private var batches: [String: RowBatch] = [:]
    /// The batches holding rows not yet inserted.
    @exclusivity(unchecked) private var pendingBatches: [RowBatch] = []

    /// Called by an inserter when it stages a row in `batch`.
    func holdsPendingRows(_ batch: RowBatch) {
        guard !batch.isListedWithWriter else { return }
        batch.isListedWithWriter = true
        pendingBatches.append(batch)
    }

    /// Inserts every row the batches still hold, before anything reads or changes the tables or
    /// commits: rows staged for a multi-row insert are otherwise not yet in the store.
    func flushPendingRows() throws(StoreWriterError) {
        while let batch = pendingBatches.popLast() {
            batch.isListedWithWriter = false
            try batch.flush()
        }
    }

    /// Commits the open batch, `Z_MAX` of the changed roots included, so every commit is consistent.
    private func commitBatch() throws(StoreWriterError) {
        try flushPendingRows()
        let database = try openDatabase()
        guard database.isInTransaction else { return }
        do {
            let update = try database.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            for counter in primaryKeys.values.filter(\.isChanged).sorted(by: { $0.root < $1.root }) {
                guard let number = layout.entityNumbers[counter.root] else { continue }
                try update.bind(counter.last, at: 1)
                try update.bind(Int64(number), at: 2)
                try update.run()
                try update.reset()
            }
            update.finalize()
            try database.commit()
        } catch {
            throw .sqlite(error)
        }
        for counter in primaryKeys.values { counter.markWritten() }
        rowsInBatch = 0
    }

    // MARK: Working with the connection

    /// Runs SQL on the store inside the current batch transaction (opening one when needed):
    /// for set-based work such as resolving relationships after the rows are in. FerryStore's
    /// own: no other module writes SQL against the layout.
    func execute(_ sql: String) throws(StoreWriterError) {
        try flushPendingRows()
        // Set-based SQL may add rows to any table: keys are no longer left for SQLite to give.
        for batch in batches.values { batch.forgetTableMax() }
        try beginRow()
        let database = try openDatabase()
        try StoreWriterError.sqlite { () throws(SQLiteError) in try database.execute(sql) }
    }

    /// Prepares a statement on the store's connection; it is finalized when the writer finishes.
    /// Run it inside `execute`d work or between inserts (a batch transaction is opened on demand).
    func prepareStatement(_ sql: String) throws(StoreWriterError) -> SQLiteStatement {
        try flushPendingRows()
        try beginRow()
        return try prepare(sql)
    }

    /// The integer of the first row of a query on the store's connection (0 when there is none),
    /// as `prepareStatement` runs it.
    func integer(_ sql: String) throws(StoreWriterError) -> Int {
        let statement = try prepareStatement(sql)
        defer { statement.finalize() }
        return try StoreWriterError.sqlite { () throws(SQLiteError) in try statement.step() ? Int(statement.int64(at: 0)) : 0 }
    }

    /// Attaches an empty scratch database under `name` for working tables (key maps, staged
    /// links). SQLite keeps it in a private temporary file that disappears with the connection,
    /// so nothing of it reaches the store. It has no rollback journal: a failed run discards it
    /// with the store, and journaling every page its indexes change cost a write per page (a
    /// sixth of a large migration's time went to that file and its journal).
    func attachScratchDatabase(named name: String) throws(StoreWriterError) {
        try commitBatch()
        let database = try openDatabase()
        try StoreWriterError.sqlite { () throws(SQLiteError) in try database.execute("ATTACH DATABASE '' AS \(name); PRAGMA \(name).journal_mode=OFF") }
    }

    /// Hands out `count` consecutive `Z_PK`s of a root entity for rows inserted with plain SQL,
    /// and records them in `Z_MAX` with the next commit.
    public func reservePrimaryKeys(root: String, count: Int) throws(StoreWriterError) -> Range<Int64> {
        let counter = primaryKeyCounter(root: root)
        guard count > 0 else { return counter.last..<counter.last }
        let first = try counter.next()
        guard Int64(count) - 1 <= Int64.max - first else { throw .primaryKeysExhausted(root: root) }
        try beginRow()
        counter.advance(to: first + Int64(count) - 1)
        return first..<(first + Int64(count))
    }

    /// Records `maximum` as the highest `Z_PK` handed out in the hierarchy of `root` when it is
    /// above the writer's own, as `Z_MAX` stays above the rows of a store whose last objects were
    /// deleted: no key at or below it is handed out again, so an object URI saved for a deleted
    /// object never names a new one (a restore keeps the backed-up store's maxima, a migration
    /// those of the store whose identity it keeps), and rows inserted later with their own
    /// identity (`ObjectIdentity`) up to there cannot meet a key given meanwhile.
    public func keepPrimaryKeys(through maximum: Int64, root: String) throws(StoreWriterError) {
        let counter = primaryKeyCounter(root: root)
        guard maximum > counter.last else { return }
        try beginRow()
        counter.advance(to: maximum)
    }

    /// The highest `Z_PK` of the root entity `root` that the store held before this writer
    /// wrote to it: rows above it are this writer's own (0 for a new store).
    public func lastKeyBefore(root: String) -> Int64 {
        keysBefore[root] ?? 0
    }

    /// Commits the rows written so far, so that another connection can read the store being
    /// built at `temporaryPath` (a check before `finish()`). With `flushing` (for a store that
    /// `finish(durable: true)` will place) it also starts flushing the file to disk on a worker
    /// thread: the check reads while the pages are written back, and `finish()` syncs only what
    /// changed since (the journal mode's header at least).
    public func commit(flushing: Bool = true) throws(StoreWriterError) {
        try completeDerivedAttributes()
        try commitBatch()
        if flushing, earlyFlush == nil {
            let path = temporaryPath
            earlyFlush = BackgroundWork { Result { () throws(StoreWriterError) in try DurableFile.openAndSync(path) } }
        }
    }

    /// Waits for the flush `commit()` started and closes its descriptor; its error is the run's
    /// (an `fsync` reports a failed write-back once: a later one may succeed though the bytes
    /// are lost). Called once the store's connections are closed: closing a descriptor of a file
    /// releases every POSIX lock this process holds on it, SQLite's included.
    private func awaitEarlyFlush() throws(StoreWriterError) {
        guard let flush = earlyFlush else { return }
        earlyFlush = nil
        DurableFile.closeDescriptor(try flush.wait())
    }

    /// Sets one of the application's own metadata keys (`StoreMetadata.additionalEntries`) and
    /// rewrites `Z_METADATA` with it, in the current batch.
    public func setMetadataEntry(_ key: String, to value: PropertyListValue) throws(StoreWriterError) {
        try setMetadataEntries([key: value])
    }

    /// Sets keys of the application's own metadata (`StoreMetadata.additionalEntries`; a key
    /// Core Data writes itself stays Core Data's) and rewrites `Z_METADATA` with them, in the
    /// current batch.
    public func setMetadataEntries(_ entries: [String: PropertyListValue]) throws(StoreWriterError) {
        let plist: [UInt8]
        var created = metadata
        var appended = appendedMetadata
        if var made = created {
            made.additionalEntries.merge(entries) { _, new in new }
            plist = try encodeMetadataPlist(made)
            created = made
        } else if var read = appended {
            // The store's other keys, Core Data's included, are written back as they were read.
            for (key, value) in entries where !StoreMetadata.frameworkKeys.contains(key) { read[key] = value }
            do { plist = try BinaryPropertyListWriter().encode(.dictionary(read)) } catch { throw .metadataEncoding(String(describing: error)) }
            appended = read
        } else {
            throw .existingStore(path: path, reason: "it has no metadata this writer read")
        }
        try beginRow()
        let database = try openDatabase()
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ? WHERE Z_VERSION = 1")
            defer { update.finalize() }
            try update.bindBlob(plist, at: 1)
            try update.run()
        }
        metadata = created
        appendedMetadata = appended
    }

    // MARK: Finishing

    /// Commits the last batch, switches the store to WAL, makes it durable and renames it to the
    /// target. Inserters of this writer stop working.
    ///
    /// - Parameters:
    ///   - durable: false for a private store that this process reads once and deletes (the
    ///     expected store of `verify --against`): it is closed and renamed without the switch to
    ///     WAL and without syncing it to disk.
    ///   - replacing: whether an existing target is replaced; when not, one that appeared while
    ///     the store was built is never replaced (`.destinationExists`, and nothing is written).
    ///     A writer appending to a store always replaces it.
    public func finish(durable: Bool = true, replacing: Bool = true) throws(StoreWriterError) {
        let replacing = replacing || appendedOriginal != nil
        try completeDerivedAttributes()
        try commitBatch()
        let database = try openDatabase()
        statements.forEach { $0.finalize() }
        statements.removeAll()
        guard durable else {
            try StoreWriterError.sqlite { () throws(SQLiteError) in try database.close() }
            self.database = nil
            try? awaitEarlyFlush()
            try place(replacing: replacing)
            return
        }
        let wal = "PRAGMA journal_mode=WAL"
        let mode = try StoreWriterError.sqlite { () throws(SQLiteError) in try database.scalarText(wal) }
        guard mode == "wal" else {
            throw .sqlite(SQLiteError(path: path, code: 1, message: "journal mode stayed \(mode ?? "unknown")", sql: wal))
        }
        try StoreWriterError.sqlite { () throws(SQLiteError) in try database.close() }
        self.database = nil
        try awaitEarlyFlush()
        try DurableFile.sync(temporaryPath)
        if let original = appendedOriginal, try Self.hasLiveConnection(path) || StoreFileStamp(path) != original {
            throw .existingStore(path: path, reason: "it changed while rows were appended to a copy of it (another process wrote it); "
                + "nothing was written, run again")
        }
        if !replacing, DurableFile.exists(path) { throw .destinationExists(path) }
        if appendedOriginal == nil, StoreFileStamp(path) != destinationAtStart { throw .destinationChanged(path) }
        try Self.refuseUnreplaceable(at: path)
        if appendedOriginal == nil, DurableFile.exists(path) {
            // A live writer's journal is not deleted under it; a crashed writer's is rolled back
            // into the file it belongs to before that file is replaced.
            if try Self.hasLiveConnection(path) { throw .destinationInUse(path) }
            if RollbackJournal.holdsTransaction(of: path), try !Self.rollBackCrashedWriter(of: path) { throw .destinationInUse(path) }
        }
        let replaces = DurableFile.exists(path)
        // The replaced store keeps every commit until this one is in place: its log is folded into
        // it before the log is removed (a log left beside this store would be replayed onto it).
        if replaces { try WriteAheadLogFold.fold(path) }
        try DurableFile.remove(path + "-wal")
        try DurableFile.remove(path + "-shm")
        // A journal the replaced store's crashed writer left would be played back into this one.
        try DurableFile.remove(RollbackJournal.path(of: path))
        // On disk before the rename, whatever order the file system writes its changes in.
        if replaces { try DurableFile.sync(DurableFile.directory(of: path)) }
        // Read while both stores are at rest, removed once the new one is in place.
        let letGo = replaces && appendedOriginal == nil ? filesLetGo() : []
        try place(replacing: replacing)
        removeLetGo(letGo)
        appendTurn?.release()
        try DurableFile.sync(DurableFile.directory(of: path))
    }

    /// Renames the closed store to the target and lets go of the temporary file.
    private func place(replacing: Bool) throws(StoreWriterError) {
        for suffix in OwnedTemporary.databaseSuffixes { try DurableFile.remove(temporaryPath + suffix) }
        // The values kept outside the store first: the store placed names them.
        let placed = try placeExternalFiles()
        do { try DurableFile.place(temporaryPath, at: path, replacing: replacing) } catch {
            Self.removePlaced(placed)
            throw error
        }
        Self.removeBuiltExternalFiles(besideStore: temporaryPath)
        renamed = true
        temporary.release()
    }

    /// Abandons the store: closes it and removes the temporary file. The target is untouched.
    public func discard() {
        appendTurn?.release()
        guard !renamed else { return }
        statements.forEach { $0.finalize() }
        statements.removeAll()
        try? database?.close()
        database = nil
        try? awaitEarlyFlush()
        Self.removeBuiltExternalFiles(besideStore: temporaryPath)
        temporary.remove()
    }

    // MARK: Derived attributes

    /// Once every row is in: sets each derived attribute the layout keeps from its derivation
    /// (unless `derivedValues` is `.asWritten`), then creates those of Core Data's `Z_DA_`
    /// triggers the store lacks, so it keeps the values up to date as a store Core Data made
    /// does. Without them an app's later saves would leave the values stale. Runs once; rows
    /// written afterwards go through the triggers.
    private func completeDerivedAttributes() throws(StoreWriterError) {
        guard !derivedAttributesComplete else { return }
        derivedAttributesComplete = true
        guard !layout.derivedAttributes.isEmpty else { return }
        try flushPendingRows()
        for batch in batches.values { batch.forgetTableMax() }
        try beginRow()
        let database = try openDatabase()
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            var existing: Set<String> = []
            let names = try database.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'")
            defer { names.finalize() }
            while try names.step() { existing.insert(names.string(at: 0) ?? "") }
            for derived in layout.derivedAttributes {
                if derivedValues == .derived { try database.execute(derived.recomputeStatement) }
                for trigger in derived.triggers where !existing.contains(trigger.name) { try database.execute(trigger.createStatement) }
            }
        }
    }

    // MARK: Private

    func openDatabase() throws(StoreWriterError) -> SQLiteDatabase {
        guard let database else { throw .writerClosed(path: path) }
        return database
    }

    private func prepare(_ sql: String) throws(StoreWriterError) -> SQLiteStatement {
        let database = try openDatabase()
        let statement = try StoreWriterError.sqlite { () throws(SQLiteError) in try database.prepare(sql) }
        statements.append(statement)
        return statement
    }

    /// Page size and auto-vacuum first (they only apply before the first table), then every
    /// table, index and bookkeeping row (the metadata plist and the archived model) in one transaction.
    private func createSchema(metadata: StoreMetadata, plist: [UInt8], modelCache: [UInt8]) throws(StoreWriterError) {
        let database = try openDatabase()
        do {
            try database.execute("PRAGMA page_size=4096; PRAGMA auto_vacuum=2; PRAGMA journal_mode=TRUNCATE; PRAGMA synchronous=OFF")
            try database.beginImmediate()
            for statement in layout.createStatements { try database.execute(statement) }
            let primaryKeys = try database.prepare("INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for entity in model.entitiesInStoreOrder {
                guard let number = layout.entityNumbers[entity.name], let parent = layout.superNumber(of: entity.name) else { continue }
                try primaryKeys.bind(Int64(number), at: 1)
                try primaryKeys.bind(entity.name, at: 2)
                try primaryKeys.bind(Int64(parent), at: 3)
                try primaryKeys.run()
                try primaryKeys.reset()
            }
            primaryKeys.finalize()
            let row = try database.prepare("INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)")
            try row.bind(metadata.storeUUID.text, at: 1)
            try row.bindBlob(plist, at: 2)
            try row.run()
            row.finalize()
            let cache = try database.prepare("INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)")
            try cache.bindBlob(modelCache, at: 1)
            try cache.run()
            cache.finalize()
            try database.commit()
        } catch {
            throw .sqlite(error)
        }
    }

    private static func checkVersionHashes(_ hashes: [String: [UInt8]], model: ManagedObjectModel) throws(StoreWriterError) {
        for entity in model.entities {
            guard let hash = hashes[entity.name] else {
                throw .versionHashMismatch(entity: entity.name, reason: "missing")
            }
            guard hash.count == 32 else {
                throw .versionHashMismatch(entity: entity.name, reason: "\(hash.count) bytes instead of 32")
            }
        }
        for name in hashes.keys.sorted() where model.entity(named: name) == nil {
            throw .versionHashMismatch(entity: name, reason: "not an entity of the model")
        }
    }
}
