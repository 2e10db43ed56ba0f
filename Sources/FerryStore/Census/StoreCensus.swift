/// The rows of a Core Data store, counted with plain SQL on a connection of its own, sharing no
/// code with the record reader: no model, no layout, no entity numbering. Tables are found in
/// `sqlite_master` (every table with `Z_PK` and `Z_ENT` holds entity rows), rows are grouped by
/// their `Z_ENT` and named through the store's own `Z_PRIMARYKEY`; a row outside the table its
/// entity's rows are in (`EntityTables`) is a stray, as is a row of no entity.
///
/// A job that reads a store compares what its reader delivered with this count, so a reader's
/// blind spot (rows of an entity it numbered differently, rows of no entity at all) fails the job
/// instead of vanishing from both sides of the proof.
public struct StoreCensus: Sendable, Equatable {
    /// An entity of `Z_PRIMARYKEY` and the rows that carry its number.
    public struct EntityRows: Sendable, Equatable {
        public var number: Int64
        /// `Z_NAME` (an older name after a renaming migration).
        public var name: String
        /// `Z_SUPER`: the parent's number, 0 for a root.
        public var superNumber: Int64
        /// Rows whose `Z_ENT` is this number, in the entity's table (`EntityTables`).
        public var rows: Int64
        /// Those rows by the table they are in (more than one table only for an entity whose
        /// table the store lacks, an app's root renamed since, whose rows are counted where they are).
        public var rowsByTable: [String: Int64] = [:]
        /// `Z_MAX` as the store keeps it (on the root's row).
        public var maxPrimaryKey: Int64
        /// The largest `Z_PK` of those rows (0 when there are none).
        public var largestPrimaryKey: Int64
        /// The persistent-history and CloudKit entities (16000 and up) are the framework's own.
        public var isSystemEntity: Bool { number >= PrimaryKeyEntry.firstSystemEntityNumber }
    }

    /// Rows whose `Z_ENT` names no entity of `Z_PRIMARYKEY`, or an entity whose rows are in
    /// another table (`EntityTables`): an app's row in Core Data's own tables or in another
    /// entity's, a row of Core Data's own (a history `CHANGE`) in an app's table.
    public struct StrayRows: Sendable, Equatable, CustomStringConvertible {
        public var table: String
        /// `Z_ENT` (-1: NULL).
        public var entityNumber: Int64
        public var rows: Int64
        /// The entity `entityNumber` names (`Z_NAME`); nil when it names none.
        public var entityName: String? = nil
        /// The table that entity's rows belong in (`EntityTables`).
        public var entityTable: String? = nil

        /// What the rows are, naming table, `Z_ENT` and count (`discrepancies(delivered:)`).
        public var description: String {
            if entityNumber < 0 { return "table \(table): \(rows) rows with no Z_ENT" }
            guard let entityName, let entityTable else {
                return "table \(table): \(rows) rows with Z_ENT \(entityNumber), which names no entity in Z_PRIMARYKEY"
            }
            let whose = entityNumber >= PrimaryKeyEntry.firstSystemEntityNumber ? "Core Data's own entity" : "entity"
            return "table \(table): \(rows) rows with Z_ENT \(entityNumber), of \(whose) \(entityName), whose rows belong in table \(entityTable)"
        }
    }

    public let path: String
    /// Every `Z_PRIMARYKEY` row, in number order.
    public private(set) var entities: [EntityRows] = []
    public private(set) var strays: [StrayRows] = []
    /// Rows of every table shaped like a many-to-many join table (`Z_<n><NAME>` with no `Z_PK`),
    /// by table name.
    public private(set) var joinTableRows: [String: Int64] = [:]
    /// Rows of every table outside Core Data's layout (`LeftBehind.otherTables`), by table name.
    public private(set) var otherTableRows: [String: Int64] = [:]
    /// Every view and trigger, as `view NAME` or `trigger NAME`, with Core Data's own
    /// derived-attribute triggers told apart (`otherSchema`, `leftBehind(readWith:)`).
    private var schemaObjects: [SchemaObject] = []

    /// A view or trigger of the store, by `sqlite_master`'s type and name.
    private struct SchemaObject: Sendable, Equatable {
        var type: String
        var name: String
    }

    /// Views and triggers Core Data does not make (`LeftBehind.otherSchema`), told without a
    /// model: a trigger named as Core Data names its derived-attribute triggers counts as its own.
    public var otherSchema: [String] { otherSchema(keeping: { $0.hasPrefix(DerivedAttributeLayout.triggerPrefix) }) }

    /// Counts the rows of the store at `path` on a connection of its own (read-only, as every
    /// source is opened).
    public init(path: String) throws(SQLiteError) {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        defer { try? database.close() }
        try self.init(database: database)
    }

    /// Counts the rows on `database` as it stands (inside its read transaction, if one is open).
    init(database: SQLiteDatabase) throws(SQLiteError) {
        path = database.path
        let keys = try database.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        while try keys.step() {
            entities.append(EntityRows(number: keys.int64(at: 0), name: keys.string(at: 1) ?? "", superNumber: keys.int64(at: 2),
                                       rows: 0, maxPrimaryKey: keys.int64(at: 3), largestPrimaryKey: 0))
        }
        keys.finalize()
        var positions: [Int64: Int] = [:]
        for (position, entity) in entities.enumerated() { positions[entity.number] = position }
        let fetchIndexTables = try Self.fetchIndexShadowTables(database)
        let tables = try Self.tables(database)
        let places = EntityTables(entities: entities, tableNames: tables.map(\.0))
        for (table, columns) in tables where table != "Z_PRIMARYKEY" {
            if columns.contains("Z_PK") && columns.contains("Z_ENT") {
                for group in try Self.entityGroups(of: table, database) {
                    guard let number = group.entityNumber, let position = positions[number] else {
                        strays.append(StrayRows(table: table, entityNumber: group.entityNumber ?? -1, rows: group.rows))
                        continue
                    }
                    guard places.isInPlace(number, in: table) else {
                        strays.append(StrayRows(table: table, entityNumber: number, rows: group.rows,
                                                entityName: entities[position].name, entityTable: places.table(of: number)))
                        continue
                    }
                    entities[position].rows += group.rows
                    entities[position].rowsByTable[table, default: 0] += group.rows
                    entities[position].largestPrimaryKey = max(entities[position].largestPrimaryKey, group.largestPrimaryKey)
                }
            } else if table.hasPrefix("Z_"), table.dropFirst(2).first?.isNumber == true, !columns.contains("Z_PK") {
                joinTableRows[table] = try Self.rows(of: table, database)
            } else if !Self.bookkeepingTables.contains(table), !fetchIndexTables.contains(table) {
                otherTableRows[table] = try Self.rows(of: table, database)
            }
        }
        let objects = try database.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger') ORDER BY type, name")
        while try objects.step() {
            if let type = objects.string(at: 0), let name = objects.string(at: 1) { schemaObjects.append(SchemaObject(type: type, name: name)) }
        }
        objects.finalize()
    }

    /// Every view, and every trigger but those `isCoreDatas` names, as `view NAME` or `trigger NAME`.
    private func otherSchema(keeping isCoreDatas: (String) -> Bool) -> [String] {
        schemaObjects.filter { $0.type != "trigger" || !isCoreDatas($0.name) }.map { "\($0.type) \($0.name)" }
    }

    /// Core Data's tables of its own that hold no records.
    private static let bookkeepingTables: Set<String> = ["Z_METADATA", "Z_MODELCACHE"]

    /// The tables SQLite keeps for Core Data's R-tree fetch indexes (`Z_<Entity>_<Index>`
    /// virtual tables of the rtree module, each with `_node`, `_parent` and `_rowid` tables):
    /// derived from the entities' rows, and built again by Core Data.
    private static func fetchIndexShadowTables(_ database: SQLiteDatabase) throws(SQLiteError) -> Set<String> {
        let indexes = try database.prepare("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%' ESCAPE '\\'
              AND sql LIKE 'CREATE VIRTUAL TABLE%USING rtree%'
            """)
        defer { indexes.finalize() }
        var shadows = Set<String>()
        while try indexes.step() {
            guard let name = indexes.string(at: 0) else { continue }
            for suffix in ["_node", "_parent", "_rowid"] { shadows.insert(name + suffix) }
        }
        return shadows
    }

    private static func rows(of table: String, _ database: SQLiteDatabase) throws(SQLiteError) -> Int64 {
        try database.scalarInteger("SELECT count(*) FROM \(SQLIdentifier.quoted(table))") ?? 0
    }

    /// The entity with this number.
    public func entity(number: Int64) -> EntityRows? { entities.first { $0.number == number } }

    /// Rows of an entity and of every entity below it (by `Z_SUPER`).
    public func rowsIncludingSubentities(of number: Int64) -> Int64 {
        var total: Int64 = 0
        var pending = [number], seen = Set<Int64>()
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            total += entity(number: next)?.rows ?? 0
            pending += entities.filter { $0.superNumber == next }.map(\.number)
        }
        return total
    }

    /// The app's entities (not the framework's system entities).
    public var appEntities: [EntityRows] { entities.filter { !$0.isSystemEntity } }

    /// The framework's own records, by `Z_NAME`, for the system entities that have rows in their
    /// own tables (`ACHANGE`, …; one numbered as theirs elsewhere is a stray): the persistent
    /// history (`TRANSACTION`, `CHANGE`, `TRANSACTIONSTRING`) and CloudKit's mirroring. No Ferry
    /// job carries them.
    public var frameworkRecords: [String: Int64] {
        Dictionary(entities.filter { $0.isSystemEntity && $0.rows > 0 }.map { ($0.name, $0.rows) }, uniquingKeysWith: +)
    }

    /// What no Ferry job carries: Core Data's own records, the rows of tables outside its
    /// layout, and views and triggers it does not make. The census tells a join table by its
    /// name's shape alone (`Z_<n>…`, no `Z_PK`); given the layout the store is read with, a
    /// table of that shape the layout does not define
    /// (`Z_7OLDLINKS`, a join table of an earlier model version kept by hand) is outside it too:
    /// no reader reads it. Without a layout (a store read without a model), every such table
    /// counts as a join table.
    public func leftBehind(readWith layout: StoreLayout?) -> LeftBehind {
        var other = otherTableRows
        if let layout {
            let joins = Set(layout.joinTables.map(\.name))
            for (table, rows) in joinTableRows where !joins.contains(table) { other[table] = rows }
        }
        // With a layout, Core Data's triggers are those a store of it has (which its writer makes
        // again): an app's own trigger named like them is not.
        let schema = layout.map { layout in
            let derived = Set(layout.derivedAttributes.flatMap(\.triggers).map(\.name))
            return otherSchema(keeping: derived.contains)
        } ?? otherSchema
        return LeftBehind(frameworkRecords: frameworkRecords, otherTables: other, otherSchema: schema)
    }

    /// Rows of the app's entities, and stray rows (of any number).
    public var appRows: Int64 {
        appEntities.reduce(0) { $0 + $1.rows } + strays.reduce(0) { $0 + $1.rows }
    }

    /// Where what a reader delivered (rows per entity number) differs from this count, one line
    /// each, naming table, `Z_ENT` and counts; empty when every row is accounted for. Stray rows
    /// are always a difference: no reader can deliver them as records of an entity.
    /// - Parameter among: the entity numbers read, when only some entities were (stray rows and
    ///   records of unknown numbers are differences all the same).
    public func discrepancies(delivered: [Int64: Int64], among: Set<Int64>? = nil) -> [String] {
        var lines = strays.map(\.description)
        for entity in appEntities where entity.rows != delivered[entity.number, default: 0] && among?.contains(entity.number) != false {
            // The tables the rows are in, when more than one: the row out of place is in one of them.
            let tables = entity.rowsByTable.count < 2 ? ""
                : " (" + entity.rowsByTable.sorted { $0.key < $1.key }.map { "\($0.value) in table \($0.key)" }.joined(separator: ", ") + ")"
            lines.append("entity \(entity.name) (Z_ENT \(entity.number)): the store holds \(entity.rows) rows\(tables), "
                + "\(delivered[entity.number, default: 0]) were read")
        }
        for (number, count) in delivered.sorted(by: { $0.key < $1.key }) where count > 0 && entity(number: number).map({ $0.isSystemEntity }) != false {
            lines.append("Z_ENT \(number): \(count) records were read, but Z_PRIMARYKEY names no app entity with this number")
        }
        return lines
    }

    /// The rows of a table with one `Z_ENT` value (nil: NULL), their count and largest `Z_PK`.
    struct EntityGroup: Equatable {
        var entityNumber: Int64?
        var rows: Int64
        var largestPrimaryKey: Int64
    }

    /// A table's rows grouped by `Z_ENT`, as `SELECT Z_ENT, count(*), max(Z_PK) … GROUP BY Z_ENT`
    /// gives them. Most tables hold the rows of one entity: the `Z_ENT` of the first row is
    /// compared with every row's in one pass that sorts nothing (`count(*) FILTER`), and when none
    /// differs that is the one group, its largest key read from the end of the table's b-tree.
    /// Otherwise the `GROUP BY` runs, which sorts every row (spilling to a temporary file).
    static func entityGroups(of table: String, _ database: SQLiteDatabase) throws(SQLiteError) -> [EntityGroup] {
        let name = SQLIdentifier.quoted(table)
        let first = try database.prepare("SELECT Z_ENT FROM \(name) LIMIT 1")
        guard try first.step() else { return [] }
        let sameAsFirst = first.storageClass(at: 0) == .integer ? first.int64(at: 0) : nil
        first.finalize()
        if let number = sameAsFirst {
            let counts = try database.prepare("SELECT count(*), count(*) FILTER (WHERE Z_ENT IS NOT ?1) FROM \(name)")
            try counts.bind(number, at: 1)
            guard try counts.step() else { return [] }
            let rows = counts.int64(at: 0), others = counts.int64(at: 1)
            counts.finalize()
            if others == 0 {
                let largest = try database.scalarInteger("SELECT max(Z_PK) FROM \(name)") ?? 0
                return [EntityGroup(entityNumber: number, rows: rows, largestPrimaryKey: largest)]
            }
        }
        var groups: [EntityGroup] = []
        let counts = try database.prepare("SELECT Z_ENT, count(*), max(Z_PK) FROM \(name) GROUP BY Z_ENT")
        while try counts.step() {
            groups.append(EntityGroup(entityNumber: counts.isNull(at: 0) ? nil : counts.int64(at: 0), rows: counts.int64(at: 1),
                                      largestPrimaryKey: counts.int64(at: 2)))
        }
        counts.finalize()
        return groups
    }

    /// Every table and its column names, from `sqlite_master` and `PRAGMA table_info`. Virtual
    /// tables are left out: their rows are in their shadow tables, which are listed, and their
    /// module may be one this SQLite lacks (a full-text index of another build).
    private static func tables(_ database: SQLiteDatabase) throws(SQLiteError) -> [(String, Set<String>)] {
        let names = try database.prepare("""
            SELECT name FROM sqlite_master WHERE type = 'table' AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name
            """)
        var tables: [String] = []
        while try names.step() { if let name = names.string(at: 0) { tables.append(name) } }
        names.finalize()
        var result: [(String, Set<String>)] = []
        for table in tables where !table.hasPrefix("sqlite_") {
            let info = try database.prepare("PRAGMA table_info(\(SQLIdentifier.quoted(table)))")
            var columns = Set<String>()
            while try info.step() { if let name = info.string(at: 1) { columns.insert(name) } }
            info.finalize()
            result.append((table, columns))
        }
        return result
    }
}
