/// The rows that records carried by others (nested objects of a file) went to, by the row of
/// the record that carried them: `ferry_work.carried (root, pk, croot, cpk, ledger, merged, rel,
/// owned, dropped)`, in the scratch database of `StagedLinks`, one entry per carried record, with
/// the carrier's relationship it hangs from (`rel`) and whether the carrier owns it (`owned`: held
/// through Cascade relationships only).
///
/// - A carrier removed when its links are resolved (`LinkResolution.removeRejectedSources()`)
///   takes the rows inserted for it along, as a carrier rejected when it is written writes none
///   of them, and hands back what they were counted as (inserted, or merged into a row).
/// - A copy of a record that a duplicate policy does not keep (a later copy under keep-first, the
///   earlier ones under keep-newest for the relationships the newest gives) has the rows it owns
///   marked `dropped` (`drop`), removed before links are resolved (`removeDropped`): Core Data
///   deletes the copy it does not keep, and the delete cascades to them.
///
/// A row that another carrier's object merged into stays while that carrier does: when the
/// inserting carrier goes, the merged record takes the row over (`Removal.Change.handedOver`), and
/// the row goes only once every record that went to it has gone. A row a record of its own merged
/// into (not carried, so never removed with a carrier) is shared for good: `share` forgets its
/// insertion, and it stays whatever becomes of the carrier that made it.
public final class CarriedRows {
    private let writer: CoreDataStoreWriter
    private let insert: SQLiteStatement
    private let forget: SQLiteStatement
    private let dropOwned: SQLiteStatement
    private let work = StagedLinks.schema

    /// Carried records of one entity counted in one ledger that their carrier (or its copy) took
    /// along, or that took over a row from such records.
    public struct Removal: Sendable, Equatable {
        /// What became of the records.
        public enum Change: Sendable, Equatable {
            /// Inserted into their rows, and gone with their carrier; each row went with them
            /// unless another record merged into it, which then holds it (`handedOver`).
            case inserted
            /// Merged into rows, and gone with their carrier; the rows stay.
            case merged
            /// Merged into a row whose inserting record went: they now hold the row.
            case handedOver
        }

        /// The entity of the rows.
        public let entity: String
        /// The ledger the carried records were counted in (as `add` was given it).
        public let ledger: Int
        public let change: Change
        public let count: Int
    }

    /// Where a carried record went, and how it hangs from its carrier.
    public struct Entry {
        /// The root entity's number and the row's `Z_PK`.
        public let root: Int64
        public let pk: Int64
        /// Merged into the row (a row that was there), not inserted.
        public let merged: Bool
        /// The ledger the record is counted in.
        public let ledger: Int
        /// The carrier's relationship it hangs from (nil: none).
        public let relationship: String?
        /// Whether the carrier owns it (held through Cascade relationships only).
        public let owned: Bool

        public init(root: Int64, pk: Int64, merged: Bool, ledger: Int, relationship: String?, owned: Bool) {
            self.root = root
            self.pk = pk
            self.merged = merged
            self.ledger = ledger
            self.relationship = relationship
            self.owned = owned
        }
    }

    init(writer: CoreDataStoreWriter) throws(StoreWriterError) {
        self.writer = writer
        try writer.execute("""
            CREATE TABLE \(work).carried (root INTEGER, pk INTEGER, croot INTEGER, cpk INTEGER, caccount INTEGER, ledger INTEGER, merged INTEGER,
                rel TEXT, owned INTEGER, dropped INTEGER);
            CREATE INDEX \(work).carried_by ON carried (croot, cpk);
            CREATE INDEX \(work).carried_row ON carried (root, pk);
            """)
        insert = try writer.prepareStatement("""
            INSERT INTO \(work).carried (root, pk, croot, cpk, caccount, ledger, merged, rel, owned, dropped) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        forget = try writer.prepareStatement("DELETE FROM \(work).carried WHERE root = ? AND pk = ? AND merged = 0")
        dropOwned = try writer.prepareStatement("""
            UPDATE \(work).carried SET dropped = 1 WHERE croot = ? AND cpk = ? AND rel = ? AND owned = 1 AND merged = 0
            """)
    }

    /// Remembers where a record that the row `carrierRow` of root `carrierRoot` carries went;
    /// `carrierAccount`: the caller's number for the carrier's record (handed back when a required
    /// link of the carried record finds nothing, `removeCarriers`); `dropped`: the carrier's copy
    /// is not kept, so the row goes if the carrier owns it.
    public func add(_ entry: Entry, carrierRoot: Int64, carrierRow: Int64, carrierAccount: Int, dropped: Bool) throws(StoreWriterError) {
        let statement = insert
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(entry.root, at: 1)
            try statement.bind(entry.pk, at: 2)
            try statement.bind(carrierRoot, at: 3)
            try statement.bind(carrierRow, at: 4)
            try statement.bind(Int64(carrierAccount), at: 5)
            try statement.bind(Int64(entry.ledger), at: 6)
            try statement.bind(Int64(entry.merged ? 1 : 0), at: 7)
            if let relationship = entry.relationship { try statement.bind(relationship, at: 8) } else { try statement.bindNull(at: 8) }
            try statement.bind(Int64(entry.owned ? 1 : 0), at: 9)
            try statement.bind(Int64(dropped && entry.owned && !entry.merged ? 1 : 0), at: 10)
            try statement.run()
        }
    }

    /// The entries of rows of root `root` inserted for a carrier that was inserted itself (its
    /// account's low bit clear: not merged into a row another record holds), of a root not in
    /// `roots`: `(pk, croot, cpk, caccount)`, as SQL.
    static func removableCarriers(root: Int, apartFrom roots: [Int]) -> String {
        """
        SELECT pk, croot, cpk, caccount FROM \(StagedLinks.schema).carried WHERE merged = 0 AND root = \(root) AND caccount % 2 = 0
            AND croot NOT IN (\(roots.map(String.init).joined(separator: ", ")))
        """
    }

    /// The carriers (`removableCarriers`) of the rows of root `root` that `rows` (an SQL query of
    /// `Z_PK`s) selects: `(croot, cpk, caccount)`, as SQL.
    static func carriers(ofRows rows: String, root: Int, apartFrom roots: [Int]) -> String {
        "SELECT DISTINCT croot, cpk, caccount FROM (\(removableCarriers(root: root, apartFrom: roots))) WHERE pk IN (\(rows))"
    }

    /// Removes the carriers `carriers` (an SQL query of `(croot, cpk, caccount)`, as
    /// `carriers(ofRows:root:)` makes) with what they carried; returns the carriers' records per
    /// entity and account (their rows are deleted), and what became of the records they carried.
    func removeCarriers(_ carriers: String) throws(StoreWriterError) -> (carriers: [(entity: String, account: Int, count: Int)], carried: [Removal]) {
        let names = writer.layout.entityNames
        try writer.execute("CREATE TABLE \(work).xk AS \(carriers)")
        var removed: [(entity: String, account: Int, count: Int)] = []
        var carried: [Removal] = []
        for root in try integers("SELECT DISTINCT croot FROM \(work).xk") {
            guard let table = table(ofRoot: root, names: names) else { continue }
            let counts = try writer.prepareStatement(
                "SELECT k.caccount, t.Z_ENT, count(*) FROM \(work).xk k JOIN \(table) t ON t.Z_PK = k.cpk WHERE k.croot = \(root) GROUP BY 1, 2")
            try StoreWriterError.sqlite { () throws(SQLiteError) in
                defer { counts.finalize() }
                while try counts.step() {
                    guard let entity = names[counts.int64(at: 1)] else { continue }
                    removed.append((entity, Int(counts.int64(at: 0)), Int(counts.int64(at: 2))))
                }
            }
            carried += try remove(carriedBy: Int(root), carriers: "SELECT cpk FROM \(work).xk WHERE croot = \(root)")
            try writer.execute("DELETE FROM \(table) WHERE Z_PK IN (SELECT cpk FROM \(work).xk WHERE croot = \(root))")
        }
        try writer.execute("DROP TABLE \(work).xk")
        return (removed, carried)
    }

    /// Marks the rows that the row `carrierRow` of root `carrierRoot` owns through each of
    /// `relationships` dropped: a later copy of the record replaces what they held.
    public func drop(ownedBy carrierRow: Int64, carrierRoot: Int64, through relationships: Set<String>) throws(StoreWriterError) {
        let statement = dropOwned
        for relationship in relationships.sorted() {
            try StoreWriterError.sqlite { () throws(SQLiteError) in
                defer { try? statement.reset() }
                try statement.bind(carrierRoot, at: 1)
                try statement.bind(carrierRow, at: 2)
                try statement.bind(relationship, at: 3)
                try statement.run()
            }
        }
    }

    /// Forgets that the row `pk` of root `root` was inserted for a carried record: a record no
    /// carrier holds merged into it, so it is not the carrier's to remove.
    public func share(root: Int64, pk: Int64) throws(StoreWriterError) {
        let statement = forget
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(root, at: 1)
            try statement.bind(pk, at: 2)
            try statement.run()
        }
    }

    /// The root entities whose rows records of each root entity carried (by name): the tables a
    /// removed carrier removes rows from besides its own.
    public func carriedRoots() throws(StoreWriterError) -> [String: Set<String>] {
        let names = writer.layout.entityNames
        let statement = try writer.prepareStatement("SELECT DISTINCT croot, root FROM \(work).carried")
        defer { statement.finalize() }
        var roots: [String: Set<String>] = [:]
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            while try statement.step() {
                guard let carrier = names[statement.int64(at: 0)], let carried = names[statement.int64(at: 1)] else { continue }
                roots[carrier, default: []].insert(carried)
            }
        }
        return roots
    }

    /// Takes out the entries of the records carried by the rows of root `carrierRoot` that
    /// `carriers` (an SQL query of `Z_PK`s) selects, deleting the rows they alone went to; returns
    /// what the records were counted as, per entity, ledger and change.
    func remove(carriedBy carrierRoot: Int, carriers: String) throws(StoreWriterError) -> [Removal] {
        try remove(where: "croot = \(carrierRoot) AND cpk IN (\(carriers))")
    }

    /// Takes out the entries marked dropped (`add`, `drop`), deleting the rows they alone went to;
    /// returns them per entity and ledger (`inserted`), and the records that took a row over.
    func removeDropped() throws(StoreWriterError) -> [Removal] {
        try remove(where: "dropped = 1")
    }

    /// Takes out the entries of the rows `rows` lists (root entity number and `Z_PK`: rows that
    /// stand for no record of their own), deleting the rows inserted for them; returns what the
    /// records that went to them were counted as.
    func remove(rows: [SIMD2<Int64>]) throws(StoreWriterError) -> [Removal] {
        try writer.execute("CREATE TABLE \(work).xr (root INTEGER, pk INTEGER, PRIMARY KEY (root, pk)) WITHOUT ROWID")
        let insert = try writer.prepareStatement("INSERT OR IGNORE INTO \(work).xr (root, pk) VALUES (?, ?)")
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { insert.finalize() }
            for row in rows {
                try insert.bind(row.x, at: 1)
                try insert.bind(row.y, at: 2)
                try insert.run()
                try insert.reset()
            }
        }
        let removals = try remove(where: "(root, pk) IN (SELECT root, pk FROM \(work).xr)")
        try writer.execute("DROP TABLE \(work).xr")
        return removals
    }

    /// Takes out the entries `condition` selects. A row inserted for one of them goes unless an
    /// entry not taken out also went to it, whose record (the first such) then holds the row.
    private func remove(where condition: String) throws(StoreWriterError) -> [Removal] {
        let names = writer.layout.entityNames
        try writer.execute("""
            CREATE TABLE \(work).xc AS SELECT rowid AS id, root, pk, ledger, merged FROM \(work).carried WHERE \(condition);
            DELETE FROM \(work).carried WHERE \(condition);
            CREATE TABLE \(work).xh AS SELECT min(o.rowid) AS id FROM \(work).carried o
                JOIN \(work).xc c ON c.root = o.root AND c.pk = o.pk AND c.merged = 0 GROUP BY o.root, o.pk;
            UPDATE \(work).carried SET merged = 0 WHERE rowid IN (SELECT id FROM \(work).xh);
            """)
        var removals: [Removal] = []
        for root in try integers("SELECT DISTINCT root FROM \(work).xc") {
            guard let table = table(ofRoot: root, names: names) else { continue }
            let counts = try writer.prepareStatement("""
                SELECT c.ledger, c.merged, t.Z_ENT, count(*), 0 FROM \(work).xc c JOIN \(table) t ON t.Z_PK = c.pk WHERE c.root = \(root) GROUP BY 1, 2, 3
                UNION ALL SELECT o.ledger, 1, t.Z_ENT, count(*), 1 FROM \(work).carried o JOIN \(table) t ON t.Z_PK = o.pk
                    WHERE o.root = \(root) AND o.rowid IN (SELECT id FROM \(work).xh) GROUP BY 1, 3
                """)
            try StoreWriterError.sqlite { () throws(SQLiteError) in
                defer { counts.finalize() }
                while try counts.step() {
                    guard let entity = names[counts.int64(at: 2)] else { continue }
                    let change: Removal.Change = counts.int64(at: 4) != 0 ? .handedOver : counts.int64(at: 1) != 0 ? .merged : .inserted
                    removals.append(Removal(entity: entity, ledger: Int(counts.int64(at: 0)), change: change, count: Int(counts.int64(at: 3))))
                }
            }
            try writer.execute("""
                DELETE FROM \(table) WHERE Z_PK IN (SELECT pk FROM \(work).xc WHERE root = \(root) AND merged = 0
                    AND NOT EXISTS (SELECT 1 FROM \(work).carried o WHERE o.root = \(root) AND o.pk = xc.pk))
                """)
        }
        try writer.execute("DROP TABLE \(work).xc; DROP TABLE \(work).xh")
        return removals
    }

    /// The integers of the first column of `sql`'s rows.
    private func integers(_ sql: String) throws(StoreWriterError) -> [Int64] {
        let statement = try writer.prepareStatement(sql)
        defer { statement.finalize() }
        var values: [Int64] = []
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            while try statement.step() { values.append(statement.int64(at: 0)) }
        }
        return values
    }

    /// The table of the root entity numbered `root` (`names`: the layout's entity names).
    private func table(ofRoot root: Int64, names: [Int64: String]) -> String? {
        names[root].flatMap { writer.layout.table(forEntity: $0)?.name }
    }
}
