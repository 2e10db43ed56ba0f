/// The SQL of one relationship's pairs where the layout keeps them (`StoreRecordReader.edges`):
/// the table holding them (aliased `p`), its columns holding each pair's source key, destination
/// key and, for an ordered relationship, order key, which of its rows hold pairs, and, when the
/// source key is a foreign key rather than the row's own `Z_PK`, the rows it must name (and
/// likewise for the destination key, to name the entities of a pair's ends).
struct EdgeQuery {
    /// The table holding the pairs, and its key columns (unquoted).
    let table: String
    let sourceColumn: String
    let destinationColumn: String
    let orderColumn: String?
    /// `WHERE` conditions on `p`'s rows (nil: every row holds a pair).
    let filter: String?
    /// The table and `Z_ENT`s of the sources' hierarchy, when a pair's source key is a foreign
    /// key (kept on the destination's row, or in a join table).
    let sources: (table: String, numbers: [Int64])?
    /// The table and `Z_ENT`s of the destinations' hierarchy, when a pair's destination key is
    /// a foreign key (kept on the source's row, or in a join table).
    let destinations: (table: String, numbers: [Int64])?

    /// `FROM … WHERE …` of the pairs.
    var from: String {
        "FROM \(SQLIdentifier.quoted(table)) p" + (filter.map { " WHERE \($0)" } ?? "")
    }

    /// The pairs in order (source, then order key, then destination): source key, destination key,
    /// the order key when ordered, then, with `findingMissingSources`, 1 when the source key names
    /// no row of the sources' hierarchy (one look up by `Z_PK` per pair), else 0, then, with
    /// `namingEntities`, the `Z_ENT` of the source's row and of the destination's (NULL for a key
    /// naming no row of its hierarchy).
    func select(findingMissingSources: Bool, namingEntities: Bool = false) -> String {
        let keys = [sourceColumn, destinationColumn] + (orderColumn.map { [$0] } ?? [])
        var columns = keys.map(Self.column)
        var join = ""
        if findingMissingSources || namingEntities, let sources {
            join += Self.leftJoin(sources, as: "s", on: sourceColumn)
        }
        if findingMissingSources { columns.append(sources == nil ? "0" : "s.Z_PK IS NULL") }
        if namingEntities {
            columns.append(sources == nil ? "p.Z_ENT" : "s.Z_ENT")
            if let destinations { join += Self.leftJoin(destinations, as: "d", on: destinationColumn) }
            columns.append(destinations == nil ? "p.Z_ENT" : "d.Z_ENT")
        }
        let order = ([sourceColumn] + (orderColumn.map { [$0] } ?? []) + [destinationColumn]).map(Self.column)
        return "SELECT \(columns.joined(separator: ", ")) FROM \(SQLIdentifier.quoted(table)) p\(join)"
            + (filter.map { " WHERE \($0)" } ?? "") + " ORDER BY \(order.joined(separator: ", "))"
    }

    /// ` LEFT JOIN` of the rows of `rows` (aliased `alias`) that `p`'s `column` names.
    private static func leftJoin(_ rows: (table: String, numbers: [Int64]), as alias: String, on column: String) -> String {
        " LEFT JOIN \(SQLIdentifier.quoted(rows.table)) \(alias) ON \(alias).Z_PK = \(Self.column(column))"
            + " AND \(alias).Z_ENT IN (\(rows.numbers.map(String.init).joined(separator: ", ")))"
    }

    /// `p."NAME"`.
    static func column(_ name: String) -> String {
        "p." + SQLIdentifier.quoted(name)
    }

    /// Pairs from a foreign key, read from rows of the hierarchy numbered `rows`. `reversed`: the
    /// key points at the source (a to-many kept on its destinations' rows), whose rows are
    /// `sources`; otherwise it points at the destination, whose rows are `destinations`, and the
    /// row is the source.
    static func foreignKey(_ key: ForeignKeyPlacement, rows: [Int64], reversed: Bool, ordered: Bool,
                           sources: (table: String, numbers: [Int64])?, destinations: (table: String, numbers: [Int64])?) -> EdgeQuery {
        let filter = "\(column(key.key)) IS NOT NULL AND p.Z_ENT IN (\(rows.map(String.init).joined(separator: ", ")))"
        return EdgeQuery(table: key.table, sourceColumn: reversed ? key.key : "Z_PK", destinationColumn: reversed ? "Z_PK" : key.key,
                         orderColumn: ordered ? key.orderKey : nil, filter: filter, sources: reversed ? sources : nil,
                         destinations: reversed ? nil : destinations)
    }

    /// Pairs of a many-to-many relationship from its join table, whose sources are `sources` and
    /// destinations `destinations`; only those leading to rows of `only` (a table and `Z_ENT`s)
    /// when given.
    static func join(_ join: JoinTablePlacement, ordered: Bool, sources: (table: String, numbers: [Int64])?,
                     destinations: (table: String, numbers: [Int64])?, only: (table: String, numbers: [Int64])? = nil) -> EdgeQuery {
        let filter = only.map { destinations in
            "\(column(join.destination)) IN (SELECT Z_PK FROM \(SQLIdentifier.quoted(destinations.table))"
                + " WHERE Z_ENT IN (\(destinations.numbers.map(String.init).joined(separator: ", "))))"
        }
        return EdgeQuery(table: join.table, sourceColumn: join.source, destinationColumn: join.destination,
                         orderColumn: ordered ? join.order : nil, filter: filter, sources: sources, destinations: destinations)
    }
}
