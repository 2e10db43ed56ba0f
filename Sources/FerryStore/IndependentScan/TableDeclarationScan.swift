/// What a table's schema declares beyond its columns' names and types, read from SQLite's own
/// account of it (`sqlite3_table_column_metadata`, `PRAGMA foreign_key_list`, `index_list`,
/// `index_xinfo`) and, for `CHECK`, from its `CREATE TABLE` statement: the constraints,
/// collations and indexes that decide which writes the table accepts. Per table, not per row.
public struct TableDeclarations: Sendable, Equatable {
    /// One column's collating sequence and `NOT NULL`.
    public struct Column: Sendable, Equatable {
        public let name: String
        /// `BINARY` unless the column declares another.
        public let collation: String
        /// Declared, or implied by a `WITHOUT ROWID` table's primary key.
        public let isNotNull: Bool
        public let isPrimaryKey: Bool
    }

    /// One index of the table.
    public struct Index: Sendable, Equatable {
        public let name: String
        public let isUnique: Bool
        public let isPartial: Bool
        /// How SQLite made it: `c` (`CREATE INDEX`), `u` (a `UNIQUE` constraint), `pk` (the primary key).
        public let origin: String
        /// Its key terms in order: a column's name, or nil for an expression.
        public let columns: [String?]
        /// Each key term's collating sequence.
        public let collations: [String]
    }

    public let table: String
    public let columns: [Column]
    /// `ZA REFERENCES ZB(Z_PK) ON DELETE CASCADE`, one for each column of a foreign key constraint.
    public let references: [String]
    /// Whether the `CREATE TABLE` statement declares a `CHECK` constraint.
    public let hasCheck: Bool
    public let indexes: [Index]
}

/// Reads `TableDeclarations` on a scan connection.
public struct TableDeclarationScan {
    let connection: ScanConnection

    public init(_ connection: ScanConnection) {
        self.connection = connection
    }

    /// The declarations of `table`, whose `CREATE TABLE` statement is `createStatement`.
    public func declarations(of table: String, createStatement: String) throws(SQLiteError) -> TableDeclarations {
        let database = connection.database
        let quoted = SQLIdentifier.quoted(table)
        var columns: [TableDeclarations.Column] = []
        let info = try database.prepare("PRAGMA table_info(\(quoted))")
        while try info.step() {
            let name = info.string(at: 1) ?? ""
            let (collation, notNull) = try database.columnMetadata(table: table, column: name)
            columns.append(TableDeclarations.Column(name: name, collation: collation, isNotNull: notNull, isPrimaryKey: info.int64(at: 5) != 0))
        }
        var references: [String] = []
        let keys = try database.prepare("PRAGMA foreign_key_list(\(quoted))")
        while try keys.step() {
            let target = "\(keys.string(at: 2) ?? "?")(\(keys.string(at: 4) ?? "its primary key"))"
            references.append("\(keys.string(at: 3) ?? "?") REFERENCES \(target) ON DELETE \(keys.string(at: 6) ?? "NO ACTION")")
        }
        var listed: [(name: String, unique: Bool, origin: String, partial: Bool)] = []
        let list = try database.prepare("PRAGMA index_list(\(quoted))")
        while try list.step() {
            listed.append((list.string(at: 1) ?? "", list.int64(at: 2) != 0, list.string(at: 3) ?? "", list.int64(at: 4) != 0))
        }
        var indexes: [TableDeclarations.Index] = []
        for index in listed {
            var terms: [String?] = []
            var collations: [String] = []
            let keyTerms = try database.prepare("PRAGMA index_xinfo(\(SQLIdentifier.quoted(index.name)))")
            while try keyTerms.step() {
                guard keyTerms.int64(at: 5) != 0 else { continue }  // the rowid and other auxiliary columns
                terms.append(keyTerms.int64(at: 1) >= 0 ? keyTerms.string(at: 2) : nil)
                collations.append(keyTerms.string(at: 4) ?? "BINARY")
            }
            indexes.append(TableDeclarations.Index(name: index.name, isUnique: index.unique, isPartial: index.partial, origin: index.origin,
                                                   columns: terms, collations: collations))
        }
        return TableDeclarations(table: table, columns: columns, references: references,
                                 hasCheck: SQLKeywordSearch.contains("CHECK", in: createStatement), indexes: indexes)
    }
}
