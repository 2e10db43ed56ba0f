import FerryModel
import FerryStore

/// Turns staged links of one kind into foreign keys, join-table rows and order keys, with
/// set-based SQL in the store's batch transaction. Every name in the SQL comes from the store
/// layout; every value stays in the store or the scratch tables (nothing user-typed is spliced).
struct LinkResolver {
    let writer: CoreDataStoreWriter
    let model: ManagedObjectModel
    let createMissing: Set<String>
    /// The files links were given in, by number (`LinkStaging.files`).
    let files: [String]
    private var layout: StoreLayout { writer.layout }
    private let work = LinkStaging.schema
    /// How many unresolved links a report keeps as samples.
    private static let sampleSize = 5

    init(writer: CoreDataStoreWriter, model: ManagedObjectModel, createMissing: Set<String>, files: [String]) {
        self.writer = writer
        self.model = model
        self.createMissing = createMissing
        self.files = files
    }

    /// Resolves the links of one kind; each that finds nothing goes to `unresolved`.
    func resolve(_ kind: LinkKind, unresolved: (Reject) -> Void) throws(GraphWriteError) -> LinkReport {
        let relationship = kind.relationship
        let destination = relationship.destinationEntity
        var report = LinkReport(relationship: "\(kind.entity).\(relationship.name)",
                                matchedBy: kind.matchAttribute.map { "\(destination).\($0.name)" } ?? "source key")
        let target = try tableInfo(destination)
        if let attribute = kind.matchAttribute, createMissing.contains("\(kind.entity).\(relationship.name)") {
            report.created = try createMissingDestinations(kind, attribute: attribute.name, in: target)
        }
        try stageResolved(kind, target: target)
        report.links = try count("SELECT count(*) FROM \(work).r")
        report.unresolved = try count("SELECT count(*) FROM \(work).r WHERE dst IS NULL")
        report.resolved = report.links - report.unresolved
        report.unresolvedSamples = try reportUnresolved(kind, to: unresolved)
        report.ambiguous = try count("SELECT count(*) FROM \(work).r WHERE n > 1")
        (report.conflicts, report.duplicatePairs) = try apply(kind, target: target)
        try execute("DROP TABLE \(work).r; DROP TABLE IF EXISTS \(work).m")
        return report
    }

    // MARK: Resolution

    /// `ferry_work.r (src, pos, dst, label)`: each staged link with its destination `Z_PK` (or NULL),
    /// in the order the links were staged. Links staged by source key get their source row from
    /// the key map (`LinkStaging.lookup`) in the same pass (none: dropped, as their record was not written).
    private func stageResolved(_ kind: LinkKind, target: TableInfo) throws(GraphWriteError) {
        let source = try tableInfo(kind.entity)
        let sourceRow = "coalesce(l.pk, \(LinkStaging.lookup(key: "l.skey", namespace: "l.ns", root: source.rootNumber)))"
        let staged = "l.kind = \(kind.id) AND \(sourceRow) IS NOT NULL"
        if let attribute = kind.matchAttribute {
            let column = try attributeColumn(attribute.name, of: kind.relationship.destinationEntity, in: target)
            try execute("""
                CREATE TABLE \(work).m AS SELECT \(column) AS value, min(Z_PK) AS pk, count(*) AS n FROM \(target.table)
                    WHERE Z_ENT IN (\(target.members)) AND \(column) IS NOT NULL GROUP BY \(column);
                CREATE INDEX \(work).m_value ON m (value);
                CREATE TABLE \(work).r AS SELECT \(sourceRow) AS src, l.pos AS pos, m.pk AS dst, l.value AS label, m.n AS n,
                    l.origin AS origin, l.line AS line, l.row AS row FROM \(work).links l LEFT JOIN \(work).m m ON m.value = l.value WHERE \(staged);
                """)
        } else {
            try execute("""
                CREATE TABLE \(work).r AS SELECT \(sourceRow) AS src, l.pos AS pos, t.Z_PK AS dst, l.key AS label, 1 AS n,
                    l.origin AS origin, l.line AS line, l.row AS row FROM \(work).links l
                    LEFT JOIN \(target.table) t ON t.Z_PK = \(LinkStaging.lookup(key: "l.key", namespace: "l.ns", root: target.rootNumber))
                        AND t.Z_ENT IN (\(target.members))
                    WHERE \(staged);
                """)
        }
    }

    /// An index of `ferry_work.r` on `column` (`src` or `dst`), made by the steps that look rows up by it.
    private func indexResolved(on column: String) throws(GraphWriteError) {
        try execute("CREATE INDEX IF NOT EXISTS \(work).r_\(column) ON r (\(column))")
    }

    /// Writes the resolved links into the store where the layout keeps them; returns how many
    /// destinations of a to-many kept on its destinations' rows were claimed by two sources, and
    /// how many many-to-many pairs were given twice.
    private func apply(_ kind: LinkKind, target: TableInfo) throws(GraphWriteError) -> (conflicts: Int, duplicates: Int) {
        let relationship = kind.relationship
        let source = try tableInfo(kind.entity)
        switch try placement(of: relationship.name, of: kind.entity) {
        case .sourceRow(let key):
            try setForeignKey(key, in: source, destination: target, pairs: ("src", "dst"))
            if let inverse = model.inverse(of: relationship) {
                if case .sourceRow(let inverseKey) = try placement(of: inverse.name, of: relationship.destinationEntity) {
                    try setForeignKey(inverseKey, in: target, destination: source, pairs: ("dst", "src"))
                } else if inverse.isOrdered {
                    try renumberOrderKeys(key, in: source)
                }
            }
            return (0, 0)
        case .destinationRows(let key):
            try indexResolved(on: "dst")
            let conflicts = try count("SELECT count(*) FROM (SELECT dst FROM \(work).r WHERE dst IS NOT NULL GROUP BY dst HAVING count(DISTINCT src) > 1)")
            try setForeignKey(key, in: target, destination: source, pairs: ("dst", "src"))
            if relationship.isOrdered, let orderColumn = key.orderKey {
                try execute("""
                    UPDATE \(target.table) SET \(orderColumn) = x.v FROM (SELECT dst AS k, 2048 + 1024 * pos AS v, max(rowid) FROM \(work).r
                        WHERE dst IS NOT NULL GROUP BY dst) AS x WHERE \(target.table).Z_PK = x.k
                    """)
            }
            return (conflicts, 0)
        case .joinTable(let join):
            return (0, try insertJoinRows(join))
        }
    }

    /// Where the layout keeps the pairs of `relationship` of `entity`.
    private func placement(of relationship: String, of entity: String) throws(GraphWriteError) -> RelationshipPlacement {
        guard let placement = layout.placement(of: relationship, of: entity) else {
            throw .unsupportedLink(entity: entity, relationship: relationship, reason: "no column or join table in the store layout")
        }
        return placement
    }

    /// Sets the key on the rows named by the first of `pairs` to the second (and its `Z<n>_`
    /// column to the destination's `Z_ENT` when the destination has sub-entities).
    private func setForeignKey(_ foreignKey: ForeignKeyPlacement, in table: TableInfo, destination: TableInfo,
                               pairs: (row: String, value: String)) throws(GraphWriteError) {
        let key = foreignKey.key
        try indexResolved(on: pairs.row)
        // One pass over the links grouped by row: the value of the last link of each row (a bare
        // column next to max() comes from the row holding the maximum). A correlated
        // `ORDER BY rowid DESC LIMIT 1` subquery per row instead scans the links backwards for
        // every row (EXPLAIN QUERY PLAN: SCAN r), which is quadratic.
        try withoutIndexes(of: table.table, on: key) { () throws(GraphWriteError) in
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

    /// Order keys of the children of an ordered to-many, when the links came from the to-one side:
    /// 2048, 3072, … per parent, in `Z_PK` order.
    private func renumberOrderKeys(_ foreignKey: ForeignKeyPlacement, in table: TableInfo) throws(GraphWriteError) {
        guard let order = foreignKey.orderKey else { return }
        let key = foreignKey.key
        try execute("""
            CREATE TABLE \(work).o AS SELECT Z_PK AS pk, 1024 * (1 + row_number() OVER (PARTITION BY \(key) ORDER BY Z_PK)) AS ok
                FROM \(table.table) WHERE \(key) IS NOT NULL;
            CREATE INDEX \(work).o_pk ON o (pk);
            UPDATE \(table.table) SET \(order) = (SELECT ok FROM \(work).o WHERE o.pk = \(table.table).Z_PK) WHERE Z_PK IN (SELECT pk FROM \(work).o);
            DROP TABLE \(work).o;
            """)
    }

    /// Inserts many-to-many pairs; returns how many were duplicates.
    private func insertJoinRows(_ join: JoinTablePlacement) throws(GraphWriteError) -> Int {
        var columns = [join.source, join.destination]
        var values = ["src", "dst"]
        if let order = join.order {
            columns.append(order)
            values.append("2048 + 1024 * pos")
        }
        if let order = join.inverseOrder {
            columns.append(order)
            values.append("1024 * (1 + row_number() OVER (PARTITION BY dst ORDER BY src))")
        }
        let before = try count("SELECT count(*) FROM \(join.table)")
        try withoutIndexes(of: join.table) { () throws(GraphWriteError) in
            try execute("""
                INSERT OR IGNORE INTO \(join.table) (\(columns.joined(separator: ", ")))
                    SELECT \(values.joined(separator: ", ")) FROM \(work).r WHERE dst IS NOT NULL ORDER BY rowid
                """)
        }
        let inserted = try count("SELECT count(*) FROM \(join.table)") - before
        return try count("SELECT count(*) FROM \(work).r WHERE dst IS NOT NULL") - inserted
    }

    /// Find or create: inserts a destination row for each matched value no row has yet, with
    /// the model defaults for its other attributes. Returns how many were created.
    private func createMissingDestinations(_ kind: LinkKind, attribute: String, in target: TableInfo) throws(GraphWriteError) -> Int {
        let destination = kind.relationship.destinationEntity
        guard let entity = model.entity(named: destination), !entity.isAbstract, let number = layout.entityNumbers[destination] else {
            throw .unsupportedLink(entity: kind.entity, relationship: kind.relationship.name,
                                   reason: "cannot create \(destination) records (abstract or unknown)")
        }
        let column = try attributeColumn(attribute, of: destination, in: target)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT", column]
        var values: [StoreValue] = []
        for other in model.allAttributes(of: destination) where other.name != attribute && !other.isTransient {
            let value: AttributeValue
            do { value = try RecordAssembler.defaultValue(of: other, entity: destination) } catch {
                throw .unsupportedLink(entity: kind.entity, relationship: kind.relationship.name, reason: error.description)
            }
            if value == .null {
                guard other.isOptional else {
                    throw .unsupportedLink(entity: kind.entity, relationship: kind.relationship.name,
                                           reason: "cannot create \(destination) records: '\(other.name)' is required and has no default")
                }
                continue
            }
            guard let otherColumn = try? attributeColumn(other.name, of: destination, in: target) else { continue }
            columns.append(otherColumn)
            values.append(StoreValue(value, externallyStorable: other.allowsExternalBinaryDataStorage))
        }
        try execute("""
            CREATE TABLE \(work).new AS SELECT value FROM \(work).links WHERE kind = \(kind.id) AND value IS NOT NULL
                AND value NOT IN (SELECT \(column) FROM \(target.table) WHERE Z_ENT IN (\(target.members)) AND \(column) IS NOT NULL)
                GROUP BY value ORDER BY min(rowid)
            """)
        let created = try count("SELECT count(*) FROM \(work).new")
        if created > 0 {
            let keys = try GraphWriteError.wrap { () throws(StoreWriterError) in
                try writer.reservePrimaryKeys(root: target.root, count: created)
            }
            let defaults = Array(repeating: "?", count: values.count)
            let insert = try GraphWriteError.wrap { () throws(StoreWriterError) in
                try writer.prepareStatement("""
                    INSERT INTO \(target.table) (\(columns.joined(separator: ", ")))
                        SELECT \(keys.lowerBound - 1) + rowid, \(number), 1, value\(defaults.map { ", " + $0 }.joined()) FROM \(work).new ORDER BY rowid
                    """)
            }
            try GraphWriteError.sqlite { () throws(SQLiteError) in
                for (position, value) in values.enumerated() { try insert.bind(value, at: Int32(position + 1)) }
                try insert.run()
                insert.finalize()
            }
        }
        try execute("DROP TABLE \(work).new")
        return created
    }

    /// Hands every link that found nothing to `unresolved`, in the order they were given, as a
    /// reject of the relationship located where its record was read; returns the first few as
    /// samples for the report.
    private func reportUnresolved(_ kind: LinkKind, to unresolved: (Reject) -> Void) throws(GraphWriteError) -> [String] {
        let statement = try GraphWriteError.wrap { () throws(StoreWriterError) in
            try writer.prepareStatement("SELECT label, origin, line, row FROM \(work).r WHERE dst IS NULL ORDER BY rowid")
        }
        defer { statement.finalize() }
        let destination = kind.relationship.destinationEntity
        let wanted = kind.matchAttribute.map { "no \(destination) has \($0.name) " } ?? "no \(destination) was written for the key "
        return try GraphWriteError.sqlite { () throws(SQLiteError) in
            var samples: [String] = []
            while try statement.step() {
                let label = statement.string(at: 0) ?? "NULL"
                let file = Int(statement.int64(at: 1))
                let origin = LinkOrigin(file: files.indices.contains(file) ? files[file] : "?",
                                        line: statement.isNull(at: 2) ? nil : Int(statement.int64(at: 2)),
                                        row: statement.isNull(at: 3) ? nil : statement.int64(at: 3))
                let reject = Reject(location: origin.location, entity: kind.entity, attribute: kind.relationship.name, value: label,
                                    reason: "unresolved link: \(wanted)'\(label)'")
                if samples.count < Self.sampleSize { samples.append(reject.summary) }
                unresolved(reject)
            }
            return samples
        }
    }

    // MARK: Helpers

    /// The table of an entity's root, its concrete members' `Z_ENT`s, and the root's number.
    struct TableInfo {
        let layout: TableLayout
        let root: String
        let rootNumber: Int
        let members: String
        var table: String { layout.name }
    }

    private func tableInfo(_ entity: String) throws(GraphWriteError) -> TableInfo {
        guard let table = layout.table(forEntity: entity), case let .entity(root, _) = table.kind,
              let rootNumber = layout.entityNumbers[root] else { throw .unknownEntity(entity) }
        let members = model.hierarchy(below: entity).compactMap { layout.entityNumbers[$0.name] }.map(String.init)
        return TableInfo(layout: table, root: root, rootNumber: rootNumber, members: members.joined(separator: ", "))
    }

    private func attributeColumn(_ attribute: String, of entity: String, in table: TableInfo) throws(GraphWriteError) -> String {
        let owner = declaringEntity(of: attribute, in: entity)
        guard let column = table.layout.column(for: .attribute(entity: owner, name: attribute))?.name else {
            throw .unsupportedLink(entity: entity, relationship: attribute, reason: "no column for attribute '\(attribute)'")
        }
        return column
    }

    private func declaringEntity(of property: String, in entity: String) -> String {
        model.declaringEntity(ofProperty: property, in: entity)?.name ?? entity
    }

    /// Runs a bulk change of `table` with its non-unique indexes (those holding `column`, when
    /// given) dropped, then makes them again with Core Data's own statements: one sort instead
    /// of an index update per row, which with the rows in another order than the index touches
    /// a page of it per row. Unique indexes stay: the change may rely on them.
    private func withoutIndexes(of table: String, on column: String? = nil,
                                _ change: () throws(GraphWriteError) -> Void) throws(GraphWriteError) {
        let indexes = layout.indexes.filter { index in
            index.table == table && !index.isUnique && column.map(index.columns.contains) != false
        }
        for index in indexes { try execute("DROP INDEX \(index.name)") }
        try change()
        for index in indexes { try execute(index.createStatement) }
    }

    private func execute(_ sql: String) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in try writer.execute(sql) }
    }

    private func count(_ sql: String) throws(GraphWriteError) -> Int {
        let statement = try GraphWriteError.wrap { () throws(StoreWriterError) in try writer.prepareStatement(sql) }
        defer { statement.finalize() }
        return try GraphWriteError.sqlite { () throws(SQLiteError) in try statement.step() ? Int(statement.int64(at: 0)) : 0 }
    }
}
