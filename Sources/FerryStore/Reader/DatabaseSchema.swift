/// The tables, indexes and triggers of a database, as `sqlite_master` and the schema pragmas
/// report them.
public struct DatabaseSchema: Sendable, Equatable {
    /// User tables in `sqlite_master` order (`sqlite_*` internal tables left out).
    public var tables: [Table]
    /// Indexes in `sqlite_master` order, automatic ones (`sqlite_autoindex_*`) included.
    public var indexes: [Index]
    /// Triggers in `sqlite_master` order.
    public var triggers: [Trigger]

    /// One table: its name, `CREATE` statement and columns.
    public struct Table: Sendable, Equatable {
        public var name: String
        public var createStatement: String
        public var columns: [Column]
        /// Whether the table was declared `WITHOUT ROWID`.
        public var isWithoutRowID: Bool

        /// The column with this name (SQLite compares names without regard to ASCII case).
        public func column(named name: String) -> Column? {
            columns.first { $0.name.lowercased() == name.lowercased() }
        }
    }

    /// One column of a table.
    public struct Column: Sendable, Equatable {
        public var name: String
        /// The declared type as written (empty when none).
        public var declaredType: String
        /// The 1-based position in the primary key, 0 when not part of it.
        public var primaryKeyPosition: Int
        public var isNotNull: Bool
    }

    /// One index and the columns it covers (expressions show as empty names).
    public struct Index: Sendable, Equatable {
        public var name: String
        public var table: String
        /// The `CREATE INDEX` statement; nil for automatic indexes.
        public var createStatement: String?
        public var columns: [String]
        public var isUnique: Bool
        /// Whether the index has a `WHERE` clause: it holds (and a unique one constrains) only
        /// the rows that clause picks.
        public var isPartial: Bool
        /// Whether SQLite made the index for the table's `PRIMARY KEY` (origin `pk`): a key that
        /// is the table's rowid has none.
        public var isPrimaryKey: Bool
    }

    /// One trigger: its name, the table whose changes fire it, and its `CREATE TRIGGER` statement.
    public struct Trigger: Sendable, Equatable {
        public var name: String
        public var table: String
        public var createStatement: String
    }

    /// The table with this name (ASCII case ignored, as SQLite does).
    public func table(named name: String) -> Table? {
        tables.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The first entity table of `layout` in the store whose `Z_PK` is no rowid (`keyProblem(of:)`), with why.
    public func firstKeyProblem(in layout: StoreLayout) -> (table: String, reason: String)? {
        for table in layout.tables {
            guard case .entity = table.kind, let stored = self.table(named: table.name), let problem = keyProblem(of: stored) else { continue }
            return (table.name, problem)
        }
        return nil
    }

    /// How `Z_PK` of an entity table falls short of the table's `INTEGER PRIMARY KEY` (its rowid,
    /// unique and never NULL by construction), or nil when it is that. SQLite makes a column its
    /// rowid only when declared exactly `INTEGER PRIMARY KEY` alone, and not `DESC`: every other
    /// primary key gets an index of its own (origin `pk`), which is how this tells them apart.
    public func keyProblem(of table: Table) -> String? {
        guard let key = table.column(named: "Z_PK"), key.primaryKeyPosition == 1, !table.columns.contains(where: { $0.primaryKeyPosition > 1 }) else {
            return "Z_PK is not its primary key, so two rows may share a key"
        }
        if table.isWithoutRowID { return "the table is WITHOUT ROWID" }
        guard key.declaredType.uppercased() == "INTEGER" else {
            return "Z_PK is declared \(key.declaredType.isEmpty ? "without a type" : key.declaredType) PRIMARY KEY, which is no row ID: a key may be NULL or not an integer"
        }
        if let index = indexes.first(where: { $0.isPrimaryKey && $0.table.lowercased() == table.name.lowercased() }) {
            return "Z_PK is a PRIMARY KEY kept in index \(index.name) (as one declared DESC is), so it is no row ID: a key may be NULL"
        }
        return nil
    }

    /// Reads the schema of an open database.
    static func read(from database: SQLiteDatabase) throws(SQLiteError) -> DatabaseSchema {
        var tables: [Table] = []
        var indexes: [(name: String, table: String, sql: String?)] = []
        var triggers: [Trigger] = []
        let master = try database.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'index', 'trigger')")
        while try master.step() {
            guard let type = master.string(at: 0), let name = master.string(at: 1) else { continue }
            if type == "table" {
                guard !name.hasPrefix("sqlite_") else { continue }
                let sql = master.string(at: 3) ?? ""
                tables.append(Table(name: name, createStatement: sql, columns: [], isWithoutRowID: false))
            } else if type == "trigger" {
                triggers.append(Trigger(name: name, table: master.string(at: 2) ?? "", createStatement: master.string(at: 3) ?? ""))
            } else {
                indexes.append((name, master.string(at: 2) ?? "", master.string(at: 3)))
            }
        }
        master.finalize()
        for position in tables.indices.reversed() {
            let isVirtual = tables[position].createStatement.uppercased().hasPrefix("CREATE VIRTUAL TABLE")
            do {
                tables[position].columns = try columns(of: tables[position].name, in: database)
            } catch where isVirtual && error.primaryCode == 1 {  // SQLITE_ERROR: "no such module"
                // A virtual table of a module this SQLite lacks (a full-text index of another
                // build) cannot be read; its rows are in its shadow tables, which are listed.
                tables.remove(at: position)
                continue
            }
            tables[position].isWithoutRowID = try isWithoutRowID(tables[position].name, in: database)
        }
        var result: [Index] = []
        for index in indexes {
            let (columns, unique, partial, primaryKey) = try indexDetails(index.name, table: index.table, in: database)
            result.append(Index(name: index.name, table: index.table, createStatement: index.sql, columns: columns, isUnique: unique,
                                isPartial: partial, isPrimaryKey: primaryKey))
        }
        return DatabaseSchema(tables: tables, indexes: result, triggers: triggers)
    }

    private static func columns(of table: String, in database: SQLiteDatabase) throws(SQLiteError) -> [Column] {
        let info = try database.prepare("PRAGMA table_info(\(SQLIdentifier.quoted(table)))")
        var columns: [Column] = []
        while try info.step() {
            columns.append(Column(name: info.string(at: 1) ?? "", declaredType: info.string(at: 2) ?? "",
                                  primaryKeyPosition: Int(info.int64(at: 5)), isNotNull: info.int64(at: 3) != 0))
        }
        return columns
    }

    /// A rowid table has no index of origin `pk` unless its key is not a rowid alias; a
    /// `WITHOUT ROWID` table has no rowid to select, which is what is asked here.
    private static func isWithoutRowID(_ table: String, in database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        do {
            _ = try database.prepare("SELECT _rowid_ FROM \(SQLIdentifier.quoted(table)) LIMIT 0")
            return false
        } catch where error.primaryCode == 1 {
            return true
        }
    }

    private static func indexDetails(_ index: String, table: String,
                                     in database: SQLiteDatabase) throws(SQLiteError)
        -> (columns: [String], unique: Bool, partial: Bool, primaryKey: Bool) {
        let info = try database.prepare("PRAGMA index_info(\(SQLIdentifier.quoted(index)))")
        var columns: [String] = []
        while try info.step() { columns.append(info.string(at: 2) ?? "") }
        let list = try database.prepare("PRAGMA index_list(\(SQLIdentifier.quoted(table)))")
        var unique = false, partial = false, primaryKey = false
        while try list.step() {
            guard list.string(at: 1) == index else { continue }
            (unique, partial, primaryKey) = (list.int64(at: 2) != 0, list.int64(at: 4) != 0, list.string(at: 3) == "pk")
        }
        return (columns, unique, partial, primaryKey)
    }
}
