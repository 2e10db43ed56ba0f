import FerryModel

/// The pairs of rows the store held before an `--append` that a record merged into them under
/// keep-newest replaces: for each relationship the record gives (an empty list included), the
/// row's stored pairs go and the record's links stand, as the newest copy's links replace the
/// earlier copies' within one run (`StagedLinks.supersede`).
///
/// `ferry_work.replaced (rel, pk)` keeps the rows (`note`), by relationship number; `release`
/// empties their pairs before any link is resolved, so that a destination the record no longer
/// gives is no one's (and no claim when another record takes it), and one it gives again is set
/// again from its list, at its new place:
///
/// - a to-one on the row's own key (and, for a one-to-one, the partner's key back), when the
///   record gives it empty (a destination it gives is set by its link; one that finds nothing is
///   reported and the row keeps its destination, as a stored row does);
/// - a to-many kept on the destinations' rows: their key, entity number and order key;
/// - a many-to-many: the row's join rows (either column of a relationship that is its own inverse).
///
/// A destination whose key back is a required to-one cannot be left without it: its pair is kept
/// in `ferry_work.held` and put back by `restoreRequired` once every kind is resolved, unless a
/// link of the run gave it another source (or the same one again); the pairs put back are counted
/// per relationship. A one-to-one whose partner's side is required keeps its pair, counted too.
public final class ReplacedStoredPairs {
    private let writer: CoreDataStoreWriter
    private let insert: SQLiteStatement
    private let work = StagedLinks.schema
    /// The relationships noted, as (entity, relationship), by their number in `replaced.rel`.
    private var relationships: [(entity: String, relationship: String)] = []
    private var numbers: [String: Int] = [:]
    /// Pairs kept whatever the record gave, per `Entity.relationship`: a one-to-one's whose
    /// partner side is required (`release`).
    private var keptByRelease: [String: Int] = [:]

    /// A relationship whose stored pairs were kept because the other side requires them.
    public struct Kept: Sendable, Equatable {
        /// `Entity.relationship`, of the records that gave it.
        public var relationship: String
        /// The inverse, required to-one, that keeps them.
        public var requiredInverse: String
        public var count: Int
    }

    init(writer: CoreDataStoreWriter) throws(StoreWriterError) {
        self.writer = writer
        try writer.execute("""
            CREATE TABLE \(work).replaced (rel INTEGER, pk INTEGER, PRIMARY KEY (rel, pk)) WITHOUT ROWID;
            CREATE TABLE \(work).held (rel INTEGER, pk INTEGER, owner INTEGER, ent INTEGER, ord INTEGER);
            """)
        insert = try writer.prepareStatement("INSERT OR IGNORE INTO \(work).replaced (rel, pk) VALUES (?, ?)")
    }

    /// Remembers that a record merged under keep-newest into the stored row `pk` of `entity` gives
    /// `relationship`, with no destination when `givesNone`: the row's stored pairs of it are
    /// replaced (a to-one on the row's own key only when the record gives it none).
    public func note(row pk: Int64, entity: String, relationship: String, givesNone: Bool) throws(StoreWriterError) {
        guard let placement = writer.layout.placement(of: relationship, of: entity) else { return }
        if case .sourceRow = placement, !givesNone { return }
        let name = "\(entity).\(relationship)"
        let number: Int
        if let known = numbers[name] {
            number = known
        } else {
            number = relationships.count
            relationships.append((entity, relationship))
            numbers[name] = number
        }
        let statement = insert
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(Int64(number), at: 1)
            try statement.bind(pk, at: 2)
            try statement.run()
        }
    }

    /// Empties the noted rows' stored pairs; call before the first kind is resolved.
    public func release() throws(StoreWriterError) {
        let model = writer.model
        for (number, noted) in relationships.enumerated() {
            guard let relationship = model.allRelationships(of: noted.entity).first(where: { $0.name == noted.relationship }),
                  let placement = writer.layout.placement(of: noted.relationship, of: noted.entity) else { continue }
            let rows = "SELECT pk FROM \(work).replaced WHERE rel = \(number)"
            let inverse = model.inverse(of: relationship)
            switch placement {
            case .sourceRow(let key):
                if let inverse, case .sourceRow(let inverseKey)? = writer.layout.placement(of: inverse.name, of: relationship.destinationEntity) {
                    if inverse.isRequiredToOne {
                        let kept = try count("SELECT count(*) FROM \(key.table) WHERE Z_PK IN (\(rows)) AND \(key.key) IS NOT NULL")
                        if kept > 0 { keptByRelease["\(noted.entity).\(noted.relationship)", default: 0] += kept }
                        continue
                    }
                    try writer.execute("UPDATE \(inverseKey.table) SET \(Self.emptied(inverseKey)) WHERE \(inverseKey.key) IN (\(rows))")
                }
                try writer.execute("UPDATE \(key.table) SET \(Self.emptied(key)) WHERE Z_PK IN (\(rows))")
            case .destinationRows(let key):
                if inverse?.isRequiredToOne == true {
                    try writer.execute("""
                        INSERT INTO \(work).held (rel, pk, owner, ent, ord) SELECT \(number), Z_PK, \(key.key), \(key.entityNumber ?? "NULL"),
                            \(key.orderKey ?? "NULL") FROM \(key.table) WHERE \(key.key) IN (\(rows))
                        """)
                }
                try writer.execute("UPDATE \(key.table) SET \(Self.emptied(key)) WHERE \(key.key) IN (\(rows))")
            case .joinTable(let join):
                let other = join.isOwnInverse ? " OR \(join.destination) IN (\(rows))" : ""
                try writer.execute("DELETE FROM \(join.table) WHERE \(join.source) IN (\(rows))\(other)")
            }
        }
    }

    /// Puts back the pairs of destinations whose required to-one `release` emptied and no link of
    /// the run set again (`putBack`); call once every kind is resolved.
    /// Returns the pairs kept, per relationship.
    public func restoreRequired() throws(StoreWriterError) -> [Kept] {
        var kept: [Kept] = []
        let model = writer.model
        for (number, noted) in relationships.enumerated() {
            let name = "\(noted.entity).\(noted.relationship)"
            guard let relationship = model.allRelationships(of: noted.entity).first(where: { $0.name == noted.relationship }),
                  let inverse = model.inverse(of: relationship) else { continue }
            var count = keptByRelease[name] ?? 0
            if case .destinationRows(let key)? = writer.layout.placement(of: noted.relationship, of: noted.entity), inverse.isRequiredToOne {
                count += try putBack(number, key)
            }
            if count > 0 { kept.append(Kept(relationship: name, requiredInverse: inverse.name, count: count)) }
        }
        return kept
    }

    /// Puts back the held pairs of relationship `number` whose destination no link set again;
    /// returns how many. In an ordered list they come after the members the record gave, in their
    /// old order (`LinkResolution.placeChildren` places a list's new members so).
    private func putBack(_ number: Int, _ key: ForeignKeyPlacement) throws(StoreWriterError) -> Int {
        let table = key.table
        try writer.execute("""
            CREATE TABLE \(work).back AS SELECT h.pk AS pk, h.owner AS owner, h.ent AS ent, h.ord AS ord FROM \(work).held h
                JOIN \(table) t ON t.Z_PK = h.pk WHERE h.rel = \(number) AND t.\(key.key) IS NULL;
            UPDATE \(table) SET \(key.key) = b.owner\(key.entityNumber.map { ", \($0) = b.ent" } ?? "") FROM \(work).back b WHERE \(table).Z_PK = b.pk;
            """)
        if let order = key.orderKey {
            try writer.execute("""
                CREATE TABLE \(work).bp AS SELECT b.pk AS pk, coalesce((SELECT max(t.\(order)) FROM \(table) t
                        WHERE t.\(key.key) = b.owner AND t.Z_PK NOT IN (SELECT pk FROM \(work).back)), 1024)
                    + 1024 * row_number() OVER (PARTITION BY b.owner ORDER BY b.ord, b.pk) AS ok FROM \(work).back b;
                UPDATE \(table) SET \(order) = p.ok FROM \(work).bp p WHERE \(table).Z_PK = p.pk;
                DROP TABLE \(work).bp;
                """)
        }
        let back = try count("SELECT count(*) FROM \(work).back")
        try writer.execute("DROP TABLE \(work).back")
        return back
    }

    /// The assignments that empty a foreign key with its entity number and order key.
    private static func emptied(_ key: ForeignKeyPlacement) -> String {
        ([key.key] + [key.entityNumber, key.orderKey].compactMap { $0 }).map { "\($0) = NULL" }.joined(separator: ", ")
    }

    private func count(_ sql: String) throws(StoreWriterError) -> Int {
        try writer.integer(sql)
    }
}
