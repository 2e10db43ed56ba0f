import FerryModel

/// The rows this run inserted whose records gave no destination for a required to-one, which
/// links of the run could still fill from the other side (a folder listing its notes, a task
/// naming its detail), noted as they were written (`StagedLinks.noteUnfilled`).
///
/// Made once every kind that fills the relationship is resolved, it finds those of them still
/// without a destination (`ferry_work.u`), and, when the relationship stays in one table (a
/// task's required parent), the rows of this run whose destination is one of those: they needed
/// it. Core Data would refuse to save any of them. `forEachRecord` hands over the records that
/// gave them; `remove` removes them, as `LinkResolution.removeRejectedSources` removes its rows.
/// A row the store held before the run is never among them.
public final class UnfilledRequiredRows {
    private let staged: StagedLinks
    private let table: EntityTable
    private let root: Int
    private let ownKinds: [Int]
    private let work = StagedLinks.schema
    private var writer: CoreDataStoreWriter { staged.writer }

    /// The rows found.
    public private(set) var count = 0

    /// One record that gave a row found.
    public struct Record: Sendable, Equatable {
        /// The entity of the row (the record's, in the version written).
        public let entity: String
        public let origin: LinkOrigin
        /// Whether the row is there because its destination is one of the rows found (it
        /// follows it), not because it has none.
        public let followsAnother: Bool
    }

    /// Finds the rows noted under `need` whose `relationship` (a required to-one, declared by
    /// `entity`) is still empty. `ownKinds`: the kinds of the relationship itself, whose links a
    /// row that follows another was given by.
    public init(entity: String, relationship: Relationship, need: Int, ownKinds: [Int], in staged: StagedLinks) throws(LinkResolutionError) {
        self.staged = staged
        self.ownKinds = ownKinds
        table = try EntityTable(entity, staged.writer)
        root = table.rootNumber
        guard case .sourceRow(let foreignKey) = staged.writer.layout.placement(of: relationship.name, of: entity) else {
            throw .unsupported(entity: entity, relationship: relationship.name, reason: "no column in the store layout")
        }
        let (name, column, members) = (table.table, foreignKey.key, table.members)
        try staged.execute("""
            CREATE TABLE \(work).u (pk INTEGER PRIMARY KEY, follows INTEGER);
            INSERT OR IGNORE INTO \(work).u SELECT c.pk, 0 FROM \(work).copies c JOIN \(name) t ON t.Z_PK = c.pk
                WHERE c.root = \(root) AND c.needs = \(need) AND t.Z_ENT IN (\(members)) AND t.\(column) IS NULL;
            """)
        let destination = try EntityTable(relationship.destinationEntity, staged.writer)
        if destination.rootNumber == root, try staged.count("SELECT count(*) FROM \(work).u") > 0 {
            // A row of this run whose destination is a row found follows it, when the run can
            // name its records (noted, or given by a link of the relationship's own).
            let before = writer.lastKeyBefore(root: table.root)
            try staged.execute("""
                WITH RECURSIVE removed(pk) AS (
                    SELECT pk FROM \(work).u
                    UNION
                    SELECT t.Z_PK FROM \(name) t JOIN removed ON t.\(column) = removed.pk
                        WHERE t.Z_PK > \(before) AND t.Z_ENT IN (\(members)) AND t.Z_PK IN (\(accountableRows)))
                INSERT OR IGNORE INTO \(work).u SELECT pk, 1 FROM removed;
                """)
        }
        count = try staged.count("SELECT count(*) FROM \(work).u")
        if count == 0 { try staged.execute("DROP TABLE \(work).u") }
    }

    /// SQL of the rows of the table whose records the run can name: those noted in `copies`, and
    /// those given by a link of the relationship staged under an account.
    private var accountableRows: String {
        let own = ownKinds.isEmpty ? "" : """
             UNION SELECT pk FROM \(work).links WHERE kind IN (\(ownKinds.map(String.init).joined(separator: ", "))) AND account IS NOT NULL
            """
        return "SELECT pk FROM \(work).copies WHERE root = \(root)" + own
    }

    /// SQL of the records that gave the rows found, once each: the row's `Z_PK` and `Z_ENT`,
    /// and the record's account and origin.
    private var records: String {
        let own = ownKinds.isEmpty ? "" : """
             UNION SELECT pk, account, origin, line, row, path FROM \(work).links
                WHERE kind IN (\(ownKinds.map(String.init).joined(separator: ", "))) AND account IS NOT NULL AND pk IN (SELECT pk FROM \(work).u)
            """
        return """
            SELECT g.pk, t.Z_ENT, g.account, g.origin, g.line, g.row, g.path, u.follows FROM (
                SELECT pk, account, origin, line, row, path FROM \(work).copies WHERE root = \(root) AND pk IN (SELECT pk FROM \(work).u)\(own)) g
                JOIN \(work).u u ON u.pk = g.pk JOIN \(table.table) t ON t.Z_PK = g.pk
            """
    }

    /// Hands every record that gave a row found to `body`, in the order the rows were written;
    /// call before `remove`.
    public func forEachRecord(_ body: (Record) -> Void) throws(LinkResolutionError) {
        guard count > 0 else { return }
        let statement = try LinkResolutionError.store { () throws(StoreWriterError) in
            try writer.prepareStatement("SELECT Z_ENT, origin, line, row, path, follows FROM (\(records)) ORDER BY pk, origin, line, row, path")
        }
        defer { statement.finalize() }
        let (files, names) = (staged.files, writer.layout.entityNames)
        try LinkResolutionError.sqlite { () throws(SQLiteError) in
            while try statement.step() {
                let file = Int(statement.int64(at: 1))
                let origin = LinkOrigin(file: files.indices.contains(file) ? files[file] : "?",
                                        line: statement.isNull(at: 2) ? nil : Int(statement.int64(at: 2)),
                                        row: statement.isNull(at: 3) ? nil : statement.int64(at: 3), path: statement.string(at: 4))
                body(Record(entity: names[statement.int64(at: 0)] ?? "?", origin: origin, followsAnother: statement.int64(at: 5) != 0))
            }
        }
    }

    /// Removes the rows found, with the rows of the records they carried that no other record
    /// merged into (`carried`); returns how many records gave them, per entity and account.
    public func remove() throws(LinkResolutionError) -> (records: [(entity: String, account: Int, count: Int)], carried: [CarriedRows.Removal]) {
        guard count > 0 else { return ([], []) }
        var records: [(entity: String, account: Int, count: Int)] = []
        let statement = try LinkResolutionError.store { () throws(StoreWriterError) in
            try writer.prepareStatement("SELECT Z_ENT, account, count(*) FROM (\(self.records)) GROUP BY Z_ENT, account ORDER BY Z_ENT, account")
        }
        defer { statement.finalize() }
        let names = writer.layout.entityNames
        try LinkResolutionError.sqlite { () throws(SQLiteError) in
            while try statement.step() {
                records.append((names[statement.int64(at: 0)] ?? "?", Int(statement.int64(at: 1)), Int(statement.int64(at: 2))))
            }
        }
        let carried = try staged.removeRows(of: table, selectedBy: "SELECT pk FROM \(work).u")
        try staged.execute("DROP TABLE \(work).u")
        count = 0
        return (records, carried)
    }
}
