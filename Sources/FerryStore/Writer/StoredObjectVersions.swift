import FerryModel

/// Raises the `Z_OPT` of every object an `--append` changes among those the store held before
/// it, once per run, as Core Data's save of a changed object does: a record merged into it
/// (its values), a link that sets or clears its to-one, and a pair added to or taken from one of
/// its to-manys or their order (the object at the other end of a to-one whose inverse it is,
/// either side of a join row, the source of a to-many kept on its destinations' rows). A key a
/// row keeps only for another object changes that object, not the row (as `delete` counts it). An app that held the object
/// before the run then sees that it changed; objects of the run keep the version they are
/// written with.
///
/// Temporary triggers on the writer's connection do it, so that every statement that changes a
/// stored row is covered, whichever step wrote it: `temp.ferry_changed` keeps the objects raised
/// (by table and `Z_PK`), and a row's own trigger fires only on an update that did not itself
/// set `Z_OPT`. Nothing is left in the store: the triggers go with the connection.
enum StoredObjectVersions {
    /// Installs the triggers for the stored rows of each root entity: those up to
    /// `keysBefore[root]`. Nothing is installed when the store held no rows.
    static func watch(_ database: SQLiteDatabase, layout: StoreLayout, model: ManagedObjectModel,
                      keysBefore: [String: Int64]) throws(SQLiteError) {
        let tables = layout.tables.filter { if case .entity = $0.kind { true } else { false } }
        var numbers: [String: (number: Int, last: Int64)] = [:]
        for (number, table) in tables.enumerated() {
            guard case .entity(let root, _) = table.kind, let last = keysBefore[root], last > 0 else { continue }
            numbers[table.name] = (number, last)
        }
        guard !numbers.isEmpty else { return }
        /// The statements that raise the row `key` of the table holding `entity`'s rows.
        func raise(_ entity: String, _ key: String) -> String {
            guard let table = layout.table(forEntity: entity), let (number, last) = numbers[table.name] else { return "" }
            let quoted = SQLIdentifier.quoted(table.name)
            return """
                UPDATE \(quoted) SET Z_OPT = COALESCE(Z_OPT, 0) + 1 WHERE Z_PK = \(key) AND \(key) <= \(last)
                    AND NOT EXISTS (SELECT 1 FROM ferry_changed WHERE tbl = \(number) AND pk = \(key));
                INSERT OR IGNORE INTO ferry_changed SELECT \(number), \(key) WHERE \(key) <= \(last);
                """
        }
        var sql = ["CREATE TEMP TABLE ferry_changed (tbl INTEGER, pk INTEGER, PRIMARY KEY (tbl, pk)) WITHOUT ROWID"]
        func trigger(_ event: String, on table: TableLayout, when condition: String, _ body: String) {
            guard !body.isEmpty else { return }
            sql.append("CREATE TEMP TRIGGER ferry_changed_\(sql.count) AFTER \(event) ON main.\(SQLIdentifier.quoted(table.name)) "
                + "WHEN \(condition) BEGIN \(body) END")
        }
        for table in layout.tables {
            switch table.kind {
            case .entity(let root, _):
                // A row's own properties: its attributes and to-ones. A key the row keeps for
                // another object (a to-many without inverse, a place in an ordered list) is that
                // object's change, as `delete` counts it.
                let own = table.columns.filter {
                    switch $0.role {
                    case .attribute, .toOne, .toOneEntityNumber: true
                    default: false
                    }
                }.map(\.name)
                if let (_, last) = numbers[table.name], !own.isEmpty {
                    trigger("UPDATE OF \(own.joined(separator: ", "))", on: table, when: "OLD.Z_PK <= \(last) AND NEW.Z_OPT IS OLD.Z_OPT",
                            raise(root, "OLD.Z_PK"))
                }
                for column in table.columns {
                    // The object at the other end of the key: the destination of a to-one with an
                    // inverse, or the source of a to-many kept on its destinations' rows.
                    let other: String?
                    var watched = [column.name]
                    switch column.role {
                    case .toOne(let entity, let name):
                        guard let relationship = model.allRelationships(of: entity).first(where: { $0.name == name }),
                              relationship.inverseName != nil else { continue }
                        other = relationship.destinationEntity
                        if let order = table.columns.first(where: { $0.role == .orderKey(entity: entity, relationship: name) }) {
                            watched.append(order.name)
                        }
                    case .toManyKey(let entity, _, _):
                        other = entity
                    default:
                        other = nil
                    }
                    guard let other else { continue }
                    let changed = watched.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")
                    trigger("UPDATE OF \(watched.joined(separator: ", "))", on: table, when: changed,
                            raise(other, "OLD.\(column.name)") + raise(other, "NEW.\(column.name)"))
                    trigger("INSERT", on: table, when: "NEW.\(column.name) IS NOT NULL", raise(other, "NEW.\(column.name)"))
                    trigger("DELETE", on: table, when: "OLD.\(column.name) IS NOT NULL", raise(other, "OLD.\(column.name)"))
                }
            case .join:
                let sides = table.columns.compactMap { column -> (entity: String, column: String)? in
                    guard case .joinKey(let entity, _) = column.role else { return nil }
                    return (entity, column.name)
                }
                for (event, row) in [("INSERT", "NEW"), ("DELETE", "OLD"), ("UPDATE", "NEW")] {
                    trigger(event, on: table, when: "1", sides.map { raise($0.entity, "\(row).\($0.column)") }.joined())
                }
            case .bookkeeping:
                continue
            }
        }
        try database.execute(sql.joined(separator: ";\n"))
    }
}
