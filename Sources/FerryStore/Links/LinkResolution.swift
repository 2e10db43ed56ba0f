import FerryModel

/// Resolves the staged links of one kind (`StagedLinks`) into foreign keys, join-table rows and
/// order keys, with set-based SQL in the store writer's batch transaction. Every name in the SQL
/// comes from the store layout; every value stays in the store or the scratch tables (nothing
/// user-typed is spliced).
///
/// Made, it has found each link's destination (`ferry_work.r`) and counted what it found;
/// `forEachUnresolved` hands over the links that found nothing, `removeRejectedSources` removes
/// the rows that cannot be kept without their link, and `apply` writes the others where the
/// layout keeps the relationship's pairs.
public final class LinkResolution {
    private let staged: StagedLinks
    private let kind: LinkKind
    private let source: EntityTable
    private let target: EntityTable
    private var writer: CoreDataStoreWriter { staged.writer }
    private var layout: StoreLayout { writer.layout }
    private var model: ManagedObjectModel { writer.model }
    private let work = StagedLinks.schema

    /// The links of the kind whose source record was written.
    public private(set) var links = 0
    /// Links that found no destination.
    public private(set) var unresolved = 0
    /// Links of an optional relationship that lead to a record left out on purpose
    /// (`StagedLinks.markLeftOut`): dropped with it, and not among `links`.
    public private(set) var droppedWithDestinations = 0
    /// Links whose value matched several destinations (the one with the lowest `Z_PK` is used).
    public private(set) var ambiguous = 0
    /// Rows that cannot be kept without what their links of the kind failed to find
    /// (`ferry_work.x`), when the resolution removes records: rows this run wrote, whose links of
    /// the kind were all staged under an account, and for which a required to-one resolved none,
    /// or a to-many kept fewer destinations than its `minCount` after some found nothing.
    public private(set) var rejectedSources = 0
    /// The rows of records the removed rows carried, removed with them (`removeRejectedSources`).
    public private(set) var carriedRemovals: [CarriedRows.Removal] = []
    /// Records removed because an object they carried (a nested object, of this kind's entity)
    /// has a required to-one that found nothing, per entity and the caller's account
    /// (`removeRejectedSources`).
    public private(set) var rejectedCarriers: [(entity: String, account: Int, count: Int)] = []
    /// Whether carried rows whose required link found nothing reject their carriers (`ferry_work.xs`).
    private var rejectsCarriers = false
    private let removesRecords: Bool
    private let sharesPairs: Bool
    private let narrowed: NarrowedSides

    /// The sides of a kind's pairs whose to-one was a to-many (or no relationship) where some of
    /// the run's links of those pairs were read (`LinkKind.inverseWasToMany`): `own`, the kind's
    /// relationship; `inverse`, its inverse. A claim by several there is a list the version
    /// change cannot hold, refused (`LinkResolutionError.severalForToOne`), not kept last-wins.
    public struct NarrowedSides: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let own = NarrowedSides(rawValue: 1)
        public static let inverse = NarrowedSides(rawValue: 2)
    }

    /// Finds the destination of every staged link of `kind`. With `removesRecords`, the rows its
    /// unresolved links leave short of the relationship's minimum are found (`rejectedSources`)
    /// for `removeRejectedSources`: pass it for a required to-one, and for a to-many with a
    /// minimum count whose pairs no other kind of the run links. `sharesPairs`: another kind of
    /// the run links the same pairs (the inverse's), so a foreign key this kind sets may have been
    /// set to another object by it (a claim by several, counted in `apply`'s conflicts).
    /// `narrowed`: the sides on which `apply` refuses a claim by several.
    public init(_ kind: LinkKind, in staged: StagedLinks, removesRecords: Bool, sharesPairs: Bool = false,
                narrowed: NarrowedSides = []) throws(LinkResolutionError) {
        self.staged = staged
        self.kind = kind
        self.removesRecords = removesRecords
        self.sharesPairs = sharesPairs
        self.narrowed = narrowed
        target = try EntityTable(kind.relationship.destinationEntity, staged.writer)
        source = try EntityTable(kind.entity, staged.writer)
        try stageResolved()
        if staged.removedRows {
            // Links of records removed by an earlier kind are dropped, as those of records never written.
            try execute("DELETE FROM \(work).r WHERE src IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(source.table) t WHERE t.Z_PK = src)")
        }
        if dropsLinksToLeftOut {
            droppedWithDestinations = try count("SELECT count(*) FROM \(work).r WHERE leftout = 1 AND superseded IS NULL")
            try execute("DELETE FROM \(work).r WHERE leftout = 1")
        }
        links = try count("SELECT count(*) FROM \(work).r WHERE superseded IS NULL")
        unresolved = try count("SELECT count(*) FROM \(work).r WHERE dst IS NULL AND superseded IS NULL")
        ambiguous = try count("SELECT count(*) FROM \(work).r WHERE n > 1")
        try findRejectedSources()
    }

    /// Whether links of the kind that lead to records left out are dropped with them: links by
    /// source key, of a relationship with no minimum (a record that needs its destination
    /// cannot be kept without it, and its link is one that found nothing).
    private var dropsLinksToLeftOut: Bool {
        staged.hasLeftOut && kind.matchAttribute == nil && kind.relationship.minimumDestinations == 0
    }

    /// `ferry_work.x (src)`: the rows `removeRejectedSources` removes. When the relationship
    /// stays in one table (a task's required parent task), a link to a removed row finds nothing
    /// either and removes its own row in turn: the closure is one recursive query over an index
    /// of the links' destinations, linear in the links it follows however long the chain.
    private func findRejectedSources() throws(LinkResolutionError) {
        // An object without its required to-one, or with fewer destinations of a to-many than
        // its minimum count, fails Core Data's validation: its row cannot stay.
        let relationship = kind.relationship
        guard removesRecords, unresolved > 0, relationship.minimumDestinations > 0 else { return }
        let before = writer.lastKeyBefore(root: source.root)
        try execute("CREATE TABLE \(work).x (src INTEGER PRIMARY KEY)")
        if relationship.isToMany {
            guard source.root != target.root else { return }
            try execute("INSERT INTO \(work).x \(try shortToManySources(after: before))")
            rejectedSources = try count("SELECT count(*) FROM \(work).x")
            return
        }
        let found = """
            SELECT src FROM \(work).r WHERE dst IS NULL AND superseded IS NULL AND account IS NOT NULL AND src > \(before)
                EXCEPT SELECT src FROM \(work).r WHERE dst IS NOT NULL OR (account IS NULL AND superseded IS NULL)
            """
        try findRejectedCarriers(after: before)
        if source.root == target.root {
            // A row follows a removed one when its link names it and no other link of its resolves.
            try execute("""
                CREATE INDEX \(work).r_dst ON r (dst);
                CREATE INDEX \(work).r_src ON r (src);
                WITH RECURSIVE removed(src) AS (
                    \(found)
                    UNION
                    SELECT l.src FROM \(work).r l JOIN removed ON l.dst = removed.src WHERE l.account IS NOT NULL AND l.src > \(before)
                        AND NOT EXISTS (SELECT 1 FROM \(work).r o WHERE o.src = l.src AND ((o.account IS NULL AND o.superseded IS NULL) OR (o.dst IS NOT NULL AND o.dst <> removed.src))))
                INSERT INTO \(work).x SELECT src FROM removed;
                UPDATE \(work).r SET dst = NULL, n = -1 WHERE dst IN (SELECT src FROM \(work).x);
                """)
            unresolved = try count("SELECT count(*) FROM \(work).r WHERE dst IS NULL AND superseded IS NULL")
        } else {
            try execute("INSERT INTO \(work).x \(found)")
        }
        rejectedSources = try count("SELECT count(*) FROM \(work).x")
    }

    /// `ferry_work.xs (src)`: rows of objects carried by others (written for a carrier this run,
    /// `CarriedRows`) whose required to-one of this kind found nothing: their carriers cannot be
    /// kept, as a carrier whose nested object fails as it is written is not.
    ///
    /// Only carriers this run inserted (not merged into a row another record holds), of a table
    /// neither end of the kind is in (so none of this kind's links starts or ends at a carrier
    /// removed here); a carried row of any other carrier stays, and verification reports it.
    private func findRejectedCarriers(after before: Int64) throws(LinkResolutionError) {
        guard staged.carriedRows != nil, source.root != target.root else { return }
        let carriers = CarriedRows.removableCarriers(root: source.rootNumber, apartFrom: [source.rootNumber, target.rootNumber])
        try execute("""
            CREATE TABLE \(work).xs AS SELECT src FROM \(work).r WHERE dst IS NULL AND superseded IS NULL AND account IS NULL AND missing IS NULL
                AND src > \(before) AND src IN (SELECT pk FROM (\(carriers)))
                EXCEPT SELECT src FROM \(work).r WHERE dst IS NOT NULL;
            """)
        rejectsCarriers = try count("SELECT count(*) FROM \(work).xs") > 0
        if !rejectsCarriers { try execute("DROP TABLE \(work).xs") }
    }

    /// The rows this run wrote, all of whose links of a to-many kind were staged under an
    /// account, that have a link which found nothing and keep fewer destinations than the
    /// relationship's `minCount`: distinct destinations, and where the pairs are kept on the
    /// destinations' rows, only those whose last link names the row (the last one wins them).
    private func shortToManySources(after before: Int64) throws(LinkResolutionError) -> String {
        let kept: String
        if case .destinationRows = try placement(of: kind.relationship.name, of: kind.entity) {
            kept = "SELECT src, dst FROM \(work).r WHERE rowid IN (SELECT max(rowid) FROM \(work).r WHERE dst IS NOT NULL GROUP BY dst)"
        } else {
            kept = "SELECT DISTINCT src, dst FROM \(work).r WHERE dst IS NOT NULL"
        }
        return """
            SELECT s.src FROM (SELECT src FROM \(work).r WHERE dst IS NULL AND superseded IS NULL AND account IS NOT NULL AND src > \(before)
                    EXCEPT SELECT src FROM \(work).r WHERE account IS NULL AND superseded IS NULL) s
                LEFT JOIN (SELECT src, count(*) AS n FROM (\(kept)) GROUP BY src) k ON k.src = s.src
                WHERE coalesce(k.n, 0) < \(kind.relationship.minCount)
            """
    }

    /// `ferry_work.r (src, pos, dst, label, n, missing, …)`: each staged link with its destination
    /// `Z_PK` (or NULL; `n` -1 when the destination it found was removed), with how many
    /// destinations it matched, in the order the links were staged. Links staged by source key get
    /// their source row from the key map (`StagedLinks.lookup`) in the same pass (none: dropped, as
    /// their record was not written). A link whose source key names no record of its source
    /// (`StagedLinks.Source.missing`) has neither row, and that key as its label.
    private func stageResolved() throws(LinkResolutionError) {
        let sourceRow = """
            CASE WHEN l.missing IS NULL THEN \
            coalesce(l.pk, \(StagedLinks.lookup(key: "l.skey", scope: "l.sscope", namespace: "l.ns", root: source.rootNumber))) END
            """
        let staged = "l.kind = \(kind.id) AND (l.missing IS NOT NULL OR \(sourceRow) IS NOT NULL)"
        // A pair kept apart from the records (staged by source key) that names a copy merged
        // away (`StagedLinks.mapKeyAway`) goes with that copy when it is the copy's to-one (its
        // list, its owner): the kept row's own stands. A pair that is a to-many of the copy (a
        // tag's entries, an item's tags) follows the merge to the row, as the other side's
        // relationship (the entry's tags) is not the copy's to drop.
        var awaySides: [String] = []
        if !kind.relationship.isToMany {
            awaySides.append(StagedLinks.isAway(key: "l.skey", scope: "l.sscope", namespace: "l.ns", root: source.rootNumber))
        }
        if model.inverse(of: kind.relationship)?.isToMany == false {
            awaySides.append("(l.key IS NOT NULL AND \(StagedLinks.isAway(key: "l.key", scope: "l.scope", namespace: "l.ns", root: target.rootNumber)))")
        }
        let away = awaySides.isEmpty ? "0" : "(l.skey IS NOT NULL AND (\(awaySides.joined(separator: " OR "))))"
        let superseded = "CASE WHEN \(away) THEN 1 ELSE l.superseded END"
        let found = "NOT \(away) AND l.missing IS NULL"
        if let attribute = kind.matchAttribute {
            let column = try target.attributeColumn(attribute.name, of: kind.relationship.destinationEntity, model: model)
            try execute("""
                CREATE TABLE \(work).m AS SELECT \(column) AS value, min(Z_PK) AS pk, count(*) AS n FROM \(target.table)
                    WHERE Z_ENT IN (\(target.members)) AND \(column) IS NOT NULL GROUP BY \(column);
                CREATE INDEX \(work).m_value ON m (value);
                CREATE TABLE \(work).r AS SELECT \(sourceRow) AS src, l.pos AS pos, CASE WHEN \(found) THEN m.pk END AS dst,
                    CASE WHEN l.missing IS NULL THEN l.value ELSE l.skey END AS label, m.n AS n, l.missing AS missing,
                    l.origin AS origin, l.line AS line, l.row AS row, l.path AS path, l.account AS account, \(superseded) AS superseded
                    FROM \(work).links l LEFT JOIN \(work).m m ON m.value = l.value WHERE \(staged);
                """)
        } else {
            let leftOut = dropsLinksToLeftOut
                ? "CASE WHEN t.Z_PK IS NULL AND l.missing IS NULL AND \(StagedLinks.pointsAtLeftOut("l")) THEN 1 END" : "NULL"
            try execute("""
                CREATE TABLE \(work).r AS SELECT \(sourceRow) AS src, l.pos AS pos, CASE WHEN \(found) THEN t.Z_PK END AS dst,
                    CASE WHEN l.missing IS NULL THEN l.key ELSE l.skey END AS label, 1 AS n, l.missing AS missing,
                    l.origin AS origin, l.line AS line, l.row AS row, l.path AS path, l.account AS account, \(superseded) AS superseded,
                    \(leftOut) AS leftout
                    FROM \(work).links l
                    LEFT JOIN \(target.table) t ON t.Z_PK = \(StagedLinks.lookup(key: "l.key", scope: "l.scope", namespace: "l.ns", root: target.rootNumber))
                        AND t.Z_ENT IN (\(target.members))
                    WHERE \(staged);
                """)
        }
    }

    /// Hands every link that found nothing to `body`, in the order they were given.
    public func forEachUnresolved(_ body: (UnresolvedLink) -> Void) throws(LinkResolutionError) {
        let rejects = rejectedSources > 0 ? "src IN (SELECT src FROM \(work).x)" : "0"
        let rejectsCarrier = rejectsCarriers ? "src IN (SELECT src FROM \(work).xs)" : "0"
        let statement = try LinkResolutionError.store { () throws(StoreWriterError) in
            try writer.prepareStatement("""
                SELECT label, origin, line, row, \(rejects), n IS -1, path, missing IS NOT NULL, \(rejectsCarrier) FROM \(work).r
                    WHERE dst IS NULL AND superseded IS NULL ORDER BY rowid
                """)
        }
        defer { statement.finalize() }
        try LinkResolutionError.sqlite { () throws(SQLiteError) in
            while try statement.step() {
                let origin = origin(in: statement, file: 1, line: 2, row: 3, path: 6)
                body(UnresolvedLink(label: statement.string(at: 0) ?? "NULL", origin: origin, sourceIsMissing: statement.int64(at: 7) != 0,
                                    destinationRejected: statement.int64(at: 5) != 0, rejectsRecord: statement.int64(at: 4) != 0,
                                    rejectsCarrier: statement.int64(at: 8) != 0))
            }
        }
    }

    /// The records that gave the rows of `rejectedSources` (`src`, `account` and where each was
    /// read), once each: those whose links of the kind are staged (superseded ones included), and
    /// every record of such a row noted in `copies` (merged into it, `StagedLinks.noteMergedCopy`,
    /// or leaving a required to-one empty, `StagedLinks.noteUnfilled`), links of the kind or not.
    private var recordsOfRejectedSources: String {
        """
        SELECT src, account, origin, line, row, path FROM \(work).r WHERE src IN (SELECT src FROM \(work).x) AND account IS NOT NULL
            UNION SELECT pk, account, origin, line, row, path FROM \(work).copies
                WHERE root = \(source.rootNumber) AND pk IN (SELECT src FROM \(work).x)
        """
    }

    /// Hands to `body` every record `removeRejectedSources` will reject with a row that another
    /// record merged into it made fail (none of its own links of the kind found nothing), with
    /// where that record was read, in the order the rows were written; call before it.
    public func forEachRemovedCopy(_ body: (RemovedCopy) -> Void) throws(LinkResolutionError) {
        guard rejectedSources > 0 else { return }
        let failing = "dst IS NULL AND superseded IS NULL"
        let statement = try LinkResolutionError.store { () throws(StoreWriterError) in
            try writer.prepareStatement("""
                SELECT c.origin, c.line, c.row, c.path, f.origin, f.line, f.row, f.path, f.label
                    FROM (\(recordsOfRejectedSources)) c
                    JOIN (SELECT src, origin, line, row, path, label, min(rowid) FROM \(work).r WHERE \(failing) GROUP BY src) f ON f.src = c.src
                    WHERE NOT EXISTS (SELECT 1 FROM \(work).r u WHERE u.src = c.src AND u.\(failing) AND u.origin = c.origin
                        AND u.line IS c.line AND u.row IS c.row AND u.path IS c.path)
                    ORDER BY c.src, c.origin, c.line, c.row, c.path
                """)
        }
        defer { statement.finalize() }
        try LinkResolutionError.sqlite { () throws(SQLiteError) in
            while try statement.step() {
                body(RemovedCopy(origin: origin(in: statement, from: 0), failedAt: origin(in: statement, from: 4),
                                 label: statement.string(at: 8) ?? "NULL"))
            }
        }
    }

    /// The origin of a link that a row of `statement` holds in the columns of `ferry_work.r`'s
    /// `origin` (the file's number), `line`, `row` and `path`, at the places given.
    private func origin(in statement: SQLiteStatement, file: Int32, line: Int32, row: Int32, path: Int32) -> LinkOrigin {
        let number = Int(statement.int64(at: file))
        let files = staged.files
        return LinkOrigin(file: files.indices.contains(number) ? files[number] : "?",
                          line: statement.isNull(at: line) ? nil : Int(statement.int64(at: line)),
                          row: statement.isNull(at: row) ? nil : statement.int64(at: row), path: statement.string(at: path))
    }

    /// The same with the four columns in that order from `first`.
    private func origin(in statement: SQLiteStatement, from first: Int32) -> LinkOrigin {
        origin(in: statement, file: first, line: first + 1, row: first + 2, path: first + 3)
    }

    /// Removes the rows of `rejectedSources` and their links of this kind, with the rows of the
    /// records they carried that no other record merged into (`CarriedRows`, counted in
    /// `carriedRemovals`); links staged from them for kinds resolved later are dropped
    /// (`StagedLinks.removedRows`), and links to them find nothing. Returns how many records
    /// that gave the removed rows each account holds (the one written, and every one merged into
    /// it: `recordsOfRejectedSources`). First removes the carriers of carried rows whose link of the kind
    /// found nothing (`rejectedCarriers`).
    ///
    /// Resolve the kinds that remove records first, each before those whose destination is its
    /// entity or one its records carry, so that no link already written names a removed row.
    public func removeRejectedSources() throws(LinkResolutionError) -> [Int: Int] {
        if rejectsCarriers {
            let carriers = CarriedRows.carriers(ofRows: "SELECT src FROM \(work).xs", root: source.rootNumber,
                                                apartFrom: [source.rootNumber, target.rootNumber])
            let removed = try LinkResolutionError.store { () throws(StoreWriterError) in try staged.carriedRows?.removeCarriers(carriers) }
            rejectedCarriers = removed?.carriers ?? []
            carriedRemovals += removed?.carried ?? []
            try execute("DELETE FROM \(work).r WHERE src IN (SELECT src FROM \(work).xs); DROP TABLE \(work).xs")
            rejectsCarriers = false
            staged.removedRows = true
        }
        guard rejectedSources > 0 else { return [:] }
        var accounts: [Int: Int] = [:]
        let statement = try LinkResolutionError.store { () throws(StoreWriterError) in
            try writer.prepareStatement("SELECT account, count(*) FROM (\(recordsOfRejectedSources)) GROUP BY account")
        }
        defer { statement.finalize() }
        try LinkResolutionError.sqlite { () throws(SQLiteError) in
            while try statement.step() { accounts[Int(statement.int64(at: 0)), default: 0] += Int(statement.int64(at: 1)) }
        }
        carriedRemovals += try staged.removeRows(of: source, selectedBy: "SELECT src FROM \(work).x")
        try execute("DELETE FROM \(work).r WHERE src IN (SELECT src FROM \(work).x)")
        return accounts
    }

    // MARK: Writing the pairs

    /// Writes the resolved links into the store where the layout keeps them and drops the
    /// resolution's tables; returns how many rows whose key the links set were claimed by several
    /// (`claimedBySeveral`: the last one wins), and how many many-to-many pairs were given twice
    /// (kept once). A claim by several is a destination of a to-many kept on its destinations'
    /// rows (or of a mirrored one-to-one) that two sources name, or that one names while it held
    /// another: a destination that a row the store held before the run (appending) holds goes to
    /// the record of the run that names it, and the claim is counted. A one-to-one's links also fill its inverse's
    /// column when the kind mirrors them (`LinkKind.mirrorsOneToOne`), and the rows that lost
    /// their partner to them are emptied on that side (`releaseLostSides`). A claim by several on
    /// a side the resolution was told is `narrowed` throws before that side is written.
    public func apply() throws(LinkResolutionError) -> (conflicts: Int, duplicatePairs: Int) {
        let relationship = kind.relationship
        var result = (conflicts: 0, duplicatePairs: 0)
        switch try placement(of: relationship.name, of: kind.entity) {
        case .sourceRow(let key):
            // The key is the source's own: one a merged row held before is replaced by its newest
            // copy's, as the merge says; only another kind of the run (`sharesPairs`) claims it too.
            if sharesPairs { result.conflicts = try claims(on: .own, key, in: source, pairs: ("src", "dst")) }
            let inverse = model.inverse(of: relationship)
            let numbersList = inverse?.isOrdered == true && key.orderKey != nil
            if numbersList { try findChildrenToPlace(key) }
            try setForeignKey(key, in: source, destination: target, pairs: ("src", "dst"))
            if let inverse {
                if case .sourceRow(let inverseKey) = try placement(of: inverse.name, of: relationship.destinationEntity) {
                    if kind.mirrorsOneToOne {
                        try indexResolved(on: "dst")
                        result.conflicts += try claims(on: .inverse, inverseKey, in: target, pairs: ("dst", "src"))
                        try setForeignKey(inverseKey, in: target, destination: source, pairs: ("dst", "src"))
                        try releaseLostSides(key, inverseKey)
                    }
                } else if numbersList {
                    try placeChildren(key)
                }
            }
        case .destinationRows(let key):
            try indexResolved(on: "dst")
            result.conflicts = try claims(on: .inverse, key, in: target, pairs: ("dst", "src"))
            try setForeignKey(key, in: target, destination: source, pairs: ("dst", "src"))
            if relationship.isOrdered, let orderColumn = key.orderKey {
                // The last list naming a destination wins it (as its key says), at the place it
                // first names it there: a list naming a member twice keeps it once, where an
                // ordered set keeps it.
                try execute("""
                    UPDATE \(target.table) SET \(orderColumn) = x.v FROM (SELECT r.dst AS k, 2048 + 1024 * min(r.pos) AS v FROM \(work).r r
                        JOIN (SELECT dst, src, max(rowid) FROM \(work).r WHERE dst IS NOT NULL GROUP BY dst) w ON w.dst = r.dst AND w.src = r.src
                        GROUP BY r.dst) AS x WHERE \(target.table).Z_PK = x.k
                    """)
            }
            result.duplicatePairs = try repeatedPairs()
        case .joinTable(let join):
            result.duplicatePairs = try insertJoinRows(join)
        }
        try execute("DROP TABLE \(work).r; DROP TABLE IF EXISTS \(work).m; DROP TABLE IF EXISTS \(work).x")
        return result
    }

    /// Where the layout keeps the pairs of `relationship` of `entity`.
    private func placement(of relationship: String, of entity: String) throws(LinkResolutionError) -> RelationshipPlacement {
        guard let placement = layout.placement(of: relationship, of: entity) else {
            throw .unsupported(entity: entity, relationship: relationship, reason: "no column or join table in the store layout")
        }
        return placement
    }

    /// An index of `ferry_work.r` on `column` (`src` or `dst`), made by the steps that look rows up by it.
    private func indexResolved(on column: String) throws(LinkResolutionError) {
        try execute("CREATE INDEX IF NOT EXISTS \(work).r_\(column) ON r (\(column))")
    }

    /// Sets the key on the rows named by the first of `pairs` to the second (and its `Z<n>_`
    /// column to the destination's `Z_ENT` when the destination has sub-entities).
    private func setForeignKey(_ foreignKey: ForeignKeyPlacement, in table: EntityTable, destination: EntityTable,
                               pairs: (row: String, value: String)) throws(LinkResolutionError) {
        let key = foreignKey.key
        try indexResolved(on: pairs.row)
        // One pass over the links grouped by row: the value of the last link of each row (a bare
        // column next to max() comes from the row holding the maximum). A correlated
        // `ORDER BY rowid DESC LIMIT 1` subquery per row instead scans the links backwards for
        // every row (EXPLAIN QUERY PLAN: SCAN r), which is quadratic.
        try withoutIndexes(of: table.table, on: key) { () throws(LinkResolutionError) in
            try execute("""
                UPDATE \(table.table) SET \(key) = x.v FROM (SELECT \(pairs.row) AS k, \(pairs.value) AS v, max(rowid) FROM \(work).r
                    WHERE dst IS NOT NULL GROUP BY \(pairs.row)) AS x WHERE \(table.table).Z_PK = x.k
                """)
        }
        if let entityColumn = foreignKey.entityNumber {
            try execute("""
                UPDATE \(table.table) SET \(entityColumn) = (SELECT d.Z_ENT FROM \(destination.table) d WHERE d.Z_PK = \(table.table).\(key))
                    WHERE Z_PK IN (SELECT \(pairs.row) FROM \(work).r WHERE dst IS NOT NULL)
                """)
        }
    }

    /// How many rows (named by the first of `pairs`) are claimed by several on `side`
    /// (`claimedBySeveral`); refused when that side is `narrowed`, naming the first row's links.
    private func claims(on side: NarrowedSides, _ foreignKey: ForeignKeyPlacement, in table: EntityTable,
                        pairs: (row: String, value: String)) throws(LinkResolutionError) -> Int {
        let claimed = claimedBySeveral(foreignKey, in: table, pairs: pairs)
        let objects = try count("SELECT count(*) FROM (\(claimed))")
        guard objects > 0, narrowed.contains(side), let inverse = model.inverse(of: kind.relationship) else { return objects }
        // The links of the first row claimed, in the order given: those of the first two records
        // naming it, or its own record's.
        let origins = try linkOrigins("""
            SELECT origin, line, row, path FROM \(work).r WHERE rowid IN (SELECT min(rowid) FROM \(work).r WHERE dst IS NOT NULL
                AND \(pairs.row) = (SELECT \(pairs.row) FROM \(work).r WHERE dst IS NOT NULL AND \(pairs.row) IN (\(claimed)) ORDER BY rowid LIMIT 1)
                GROUP BY \(pairs.value)) ORDER BY rowid LIMIT 2
            """)
        let toOne = side == .own ? (entity: kind.entity, relationship: kind.relationship.name)
            : (entity: kind.relationship.destinationEntity, relationship: inverse.name)
        let through = side == .own ? (entity: kind.relationship.destinationEntity, relationship: inverse.name)
            : (entity: kind.entity, relationship: kind.relationship.name)
        throw .severalForToOne(NarrowedToOneClaims(entity: toOne.entity, relationship: toOne.relationship, inverseEntity: through.entity,
                                                   inverse: through.relationship, objects: objects,
                                                   origins: side == .own ? Array(origins.prefix(1)) : origins, originsAreObject: side == .own))
    }

    /// The rows (named by the first of `pairs`) whose foreign key this kind's links give two or
    /// more values, or one while the row held another: a row the store held before the run (a
    /// destination an existing record holds, when appending), or one another kind of the run set
    /// (`sharesPairs`). The last link wins each, as it does a destination claimed by several
    /// sources of one kind; a key one of the row's links gives again is no claim.
    private func claimedBySeveral(_ foreignKey: ForeignKeyPlacement, in table: EntityTable, pairs: (row: String, value: String)) -> String {
        let key = foreignKey.key
        return """
            SELECT x.k FROM (SELECT \(pairs.row) AS k, count(DISTINCT \(pairs.value)) AS n FROM \(work).r WHERE dst IS NOT NULL GROUP BY \(pairs.row)) x
                JOIN \(table.table) t ON t.Z_PK = x.k
                WHERE x.n > 1 OR (t.\(key) IS NOT NULL
                    AND NOT EXISTS (SELECT 1 FROM \(work).r o WHERE o.\(pairs.row) = x.k AND o.\(pairs.value) = t.\(key) AND o.dst IS NOT NULL))
            """
    }

    /// The origins of the links a query of `ferry_work.r` selects (`origin, line, row, path`).
    private func linkOrigins(_ sql: String) throws(LinkResolutionError) -> [LinkOrigin] {
        let statement = try LinkResolutionError.store { () throws(StoreWriterError) in try writer.prepareStatement(sql) }
        defer { statement.finalize() }
        var origins: [LinkOrigin] = []
        try LinkResolutionError.sqlite { () throws(SQLiteError) in
            while try statement.step() { origins.append(origin(in: statement, from: 0)) }
        }
        return origins
    }

    /// Once a one-to-one's links have set both sides (`key` on the sources, `inverseKey` on the
    /// destinations): empties the side of every row that lost its partner to a later claim, as
    /// Core Data does when it sets one: a source (of the run, or one the store held) still naming
    /// a destination that now names another source, and a destination still naming a source that
    /// now names another destination.
    private func releaseLostSides(_ key: ForeignKeyPlacement, _ inverseKey: ForeignKeyPlacement) throws(LinkResolutionError) {
        try indexResolved(on: "src")
        try release(key, in: source, partner: inverseKey, of: target, linked: "dst")
        try release(inverseKey, in: target, partner: key, of: source, linked: "src")
    }

    /// Empties `foreignKey` (and its entity number column) of the rows of `table` that name one of
    /// the rows this kind linked (`linked`: the column of `ferry_work.r` holding them), where that
    /// row's `partner` key names another row.
    private func release(_ foreignKey: ForeignKeyPlacement, in table: EntityTable, partner: ForeignKeyPlacement, of other: EntityTable,
                         linked: String) throws(LinkResolutionError) {
        let key = foreignKey.key
        let entity = foreignKey.entityNumber.map { ", \($0) = NULL" } ?? ""
        try execute("""
            UPDATE \(table.table) SET \(key) = NULL\(entity)
                WHERE \(key) IN (SELECT \(linked) FROM \(work).r WHERE dst IS NOT NULL)
                    AND EXISTS (SELECT 1 FROM \(other.table) p WHERE p.Z_PK = \(table.table).\(key) AND p.\(partner.key) IS NOT \(table.table).Z_PK)
            """)
    }

    /// `ferry_work.o (pk)`: the children of an ordered to-many, linked from the to-one side, that
    /// this kind's links give a place in a list: those it gives another parent than they have,
    /// and those without a place. Found before the links set the parents.
    private func findChildrenToPlace(_ foreignKey: ForeignKeyPlacement) throws(LinkResolutionError) {
        guard let order = foreignKey.orderKey else { return }
        let key = foreignKey.key
        try execute("""
            CREATE TABLE \(work).o (pk INTEGER PRIMARY KEY);
            INSERT INTO \(work).o SELECT x.src FROM (SELECT src, dst, max(rowid) FROM \(work).r WHERE dst IS NOT NULL GROUP BY src) x
                JOIN \(source.table) t ON t.Z_PK = x.src WHERE t.\(key) IS NOT x.dst OR t.\(order) IS NULL;
            """)
    }

    /// Order keys of the children `findChildrenToPlace` found, once their parents are set: after
    /// the places their parent's other children hold (a list the store held before an
    /// `--append` keeps its order), 1024 apart in `Z_PK` order; 2048, 3072, … in a new list.
    private func placeChildren(_ foreignKey: ForeignKeyPlacement) throws(LinkResolutionError) {
        guard let order = foreignKey.orderKey else { return }
        let (key, table) = (foreignKey.key, source.table)
        try execute("""
            CREATE TABLE \(work).ob AS SELECT \(key) AS parent, max(\(order)) AS last FROM \(table)
                WHERE \(key) IN (SELECT t.\(key) FROM \(work).o JOIN \(table) t ON t.Z_PK = o.pk) AND Z_PK NOT IN (SELECT pk FROM \(work).o)
                GROUP BY \(key);
            CREATE TABLE \(work).op AS SELECT t.Z_PK AS pk,
                    coalesce(b.last, 1024) + 1024 * row_number() OVER (PARTITION BY t.\(key) ORDER BY t.Z_PK) AS ok
                FROM \(work).o JOIN \(table) t ON t.Z_PK = o.pk LEFT JOIN \(work).ob b ON b.parent = t.\(key) WHERE t.\(key) IS NOT NULL;
            CREATE INDEX \(work).op_pk ON op (pk);
            UPDATE \(table) SET \(order) = (SELECT ok FROM \(work).op WHERE op.pk = \(table).Z_PK) WHERE Z_PK IN (SELECT pk FROM \(work).op);
            DROP TABLE \(work).o; DROP TABLE \(work).ob; DROP TABLE \(work).op;
            """)
    }

    /// Inserts many-to-many pairs; returns how many were duplicates.
    ///
    /// On a side without an order, a pair already in the table (given again, or from the other
    /// side) is kept as it is and counted as a duplicate. On an ordered side, the pairs are taken
    /// once each (the first position a source gives a destination) and a pair already in the table
    /// gets this side's order key: a many-to-many ordered on both sides is linked from each side,
    /// and each side's links set that side's order (a pair's other order key, until its other
    /// side's links come, numbers the sources of each destination by `Z_PK`). Only pairs this
    /// side gave twice count as duplicates there.
    private func insertJoinRows(_ join: JoinTablePlacement) throws(LinkResolutionError) -> Int {
        // The other side's places of pairs this side gives: after any that side gives itself
        // (`fallbackBase` up), numbered 2048, 3072, … once every kind is resolved (`numberOrderedLists`).
        let fallbackOrder = "\(Self.fallbackBase) + 1024 * row_number() OVER (PARTITION BY dst ORDER BY src)"
        guard let order = join.order else {
            var columns = [join.source, join.destination], values = ["src", "dst"]
            if let inverseOrder = join.inverseOrder {
                columns.append(inverseOrder)
                values.append(fallbackOrder)
            }
            let before = try count("SELECT count(*) FROM \(join.table)")
            try withoutIndexes(of: join.table) { () throws(LinkResolutionError) in
                try execute("""
                    INSERT OR IGNORE INTO \(join.table) (\(columns.joined(separator: ", ")))
                        SELECT \(values.joined(separator: ", ")) FROM \(work).r WHERE dst IS NOT NULL ORDER BY rowid
                    """)
            }
            let inserted = try count("SELECT count(*) FROM \(join.table)") - before
            return try count("SELECT count(*) FROM \(work).r WHERE dst IS NOT NULL") - inserted
        }
        var columns = [join.source, join.destination, order], values = ["src", "dst", "2048 + 1024 * pos"]
        if let inverseOrder = join.inverseOrder {
            columns.append(inverseOrder)
            values.append(fallbackOrder)
        }
        try withoutIndexes(of: join.table) { () throws(LinkResolutionError) in
            try execute("""
                INSERT INTO \(join.table) (\(columns.joined(separator: ", ")))
                    SELECT \(values.joined(separator: ", ")) FROM (SELECT src, dst, min(pos) AS pos, min(rowid) AS first FROM \(work).r
                        WHERE dst IS NOT NULL GROUP BY src, dst) WHERE true ORDER BY first
                    ON CONFLICT (\(join.source), \(join.destination)) DO UPDATE SET \(order) = excluded.\(order)
                """)
        }
        return try repeatedPairs()
    }

    /// Where the places the other side of an ordered many-to-many gets from this side's pairs
    /// start: above any place a list is given (2048 + 1024 × its length).
    private static let fallbackBase: Int64 = 1 << 40

    /// Once every kind is resolved: numbers 2048, 3072, … each list of a many-to-many ordered on
    /// both sides that holds places given from the other side's pairs (`fallbackBase` up), or
    /// two members at one place: the places a side gives itself first, in its order, then those
    /// the other side's pairs give (an album listed in an artist's list only), by `Z_PK`.
    public static func numberOrderedLists(of kinds: [LinkKind], in staged: StagedLinks) throws(LinkResolutionError) {
        var lists = Set<[String]>()
        for kind in kinds {
            guard case .joinTable(let join) = staged.writer.layout.placement(of: kind.relationship.name, of: kind.entity),
                  let order = join.order, let inverseOrder = join.inverseOrder else { continue }
            lists.insert([join.table, join.source, join.destination, order])
            lists.insert([join.table, join.destination, join.source, inverseOrder])
        }
        for list in lists.sorted(by: { $0.joined() < $1.joined() }) {
            let (table, owner, member, position) = (list[0], list[1], list[2], list[3])
            try staged.execute("""
                CREATE TABLE \(StagedLinks.schema).o AS SELECT rowid AS id,
                        1024 * (1 + row_number() OVER (PARTITION BY \(owner) ORDER BY \(position), \(member))) AS ok
                    FROM \(table) WHERE \(owner) IN (SELECT \(owner) FROM \(table) GROUP BY \(owner)
                        HAVING count(*) > count(DISTINCT \(position)) OR max(\(position)) >= \(fallbackBase));
                UPDATE \(table) SET \(position) = (SELECT ok FROM \(StagedLinks.schema).o o WHERE o.id = \(table).rowid)
                    WHERE rowid IN (SELECT id FROM \(StagedLinks.schema).o);
                DROP TABLE \(StagedLinks.schema).o;
                """)
        }
    }

    /// Links naming a pair an earlier link of the kind named (kept once).
    private func repeatedPairs() throws(LinkResolutionError) -> Int {
        try count("SELECT count(*) - (SELECT count(*) FROM (SELECT DISTINCT src, dst FROM \(work).r WHERE dst IS NOT NULL)) FROM \(work).r WHERE dst IS NOT NULL")
    }

    /// Runs a bulk change of `table` with its non-unique indexes (those holding `column`, when
    /// given) dropped, then makes them again with Core Data's own statements: one sort instead
    /// of an index update per row, which with the rows in another order than the index touches
    /// a page of it per row. Unique indexes stay: the change may rely on them.
    private func withoutIndexes(of table: String, on column: String? = nil,
                                _ change: () throws(LinkResolutionError) -> Void) throws(LinkResolutionError) {
        let indexes = layout.indexes.filter { index in
            index.table == table && !index.isUnique && column.map(index.columns.contains) != false
        }
        for index in indexes { try execute("DROP INDEX \(index.name)") }
        try change()
        for index in indexes { try execute(index.createStatement) }
    }

    private func execute(_ sql: String) throws(LinkResolutionError) {
        try staged.execute(sql)
    }

    private func count(_ sql: String) throws(LinkResolutionError) -> Int {
        try staged.count(sql)
    }
}
