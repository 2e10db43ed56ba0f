import FerryModel
import FerryPostgres

/// The DDL that makes a layout's tables in a schema: every table with its primary key, then the
/// foreign keys (so tables may point at each other in any order, cycles included), then the
/// unique indexes. Foreign keys are `DEFERRABLE INITIALLY DEFERRED`: a store's rows go in table
/// by table and are checked when its transaction commits.
struct PostgresTableDefinitions {
    let statements: [String]
    /// The names of the tables the statements make.
    let tableNames: [String]
    /// SHA-256 (hex) of the statements for a placeholder schema: equal for two models exactly when
    /// their tables are, whatever schema they are made in.
    let digest: String

    init(layout: PostgresLayout, schema: String) {
        statements = Self.statements(layout, schema: schema)
        tableNames = layout.entityTables.map(\.name) + layout.joinTables.map(\.name)
        digest = Hex.string(SHA256.hash(Array(Self.statements(layout, schema: "").joined(separator: ";\n").utf8)))
    }

    private static func statements(_ layout: PostgresLayout, schema: String) -> [String] {
        func table(_ name: String) -> String { PostgresIdentifier.qualified(schema, name) }
        let store = PostgresLayout.storeColumn
        var creates: [String] = [], keys: [String] = [], indexes: [String] = []
        for entityTable in layout.entityTables {
            let columns = entityTable.columns.map { column in
                PostgresIdentifier.quoted(column.name) + " " + column.type.sql + (column.role.isKey ? " NOT NULL" : "")
            }
            creates.append("CREATE TABLE \(table(entityTable.name)) (\(columns.joined(separator: ", ")), "
                + "PRIMARY KEY (\(PostgresIdentifier.list([store, PostgresLayout.primaryKeyColumn]))))")
            keys += entityTable.foreignKeys.map { foreignKey(from: table(entityTable.name), $0, schema: schema) }
            for unique in entityTable.uniqueIndexes {
                let rows = unique.entities.map { " WHERE \(PostgresIdentifier.quoted(PostgresLayout.entityColumn)) IN (\($0.map(literal).joined(separator: ", ")))" } ?? ""
                let keys = [PostgresIdentifier.quoted(store)] + unique.keys
                indexes.append("CREATE UNIQUE INDEX ON \(table(entityTable.name)) (\(keys.joined(separator: ", ")))\(rows)")
            }
        }
        for join in layout.joinTables {
            let columns = join.columns.map { PostgresIdentifier.quoted($0.name) + " " + $0.type.sql + ($0.name == PostgresJoinTable.positionColumn ? "" : " NOT NULL") }
            let key = [store, PostgresJoinTable.sourceColumn, PostgresJoinTable.destinationColumn]
            creates.append("CREATE TABLE \(table(join.name)) (\(columns.joined(separator: ", ")), PRIMARY KEY (\(PostgresIdentifier.list(key))))")
            keys += join.foreignKeys.map { foreignKey(from: table(join.name), $0, schema: schema) }
        }
        return creates + keys + indexes
    }

    private static func foreignKey(from table: String, _ key: PostgresForeignKey, schema: String) -> String {
        let store = PostgresLayout.storeColumn
        let action = key.onDelete == .setNull ? "SET NULL (\(PostgresIdentifier.quoted(key.column)))" : key.onDelete.rawValue
        return "ALTER TABLE \(table) ADD FOREIGN KEY (\(PostgresIdentifier.list([store, key.column]))) "
            + "REFERENCES \(PostgresIdentifier.qualified(schema, key.table)) (\(PostgresIdentifier.list([store, PostgresLayout.primaryKeyColumn]))) "
            + "ON DELETE \(action) DEFERRABLE INITIALLY DEFERRED"
    }

    /// An entity name as an SQL string constant, for the one place DDL needs a constant and
    /// cannot take a parameter: the rows a sub-entity's unique index covers. Entity names come
    /// from the model, never from records.
    private static func literal(_ name: String) -> String {
        "'" + name.replacing("'", with: "''") + "'"
    }
}

extension PostgresColumn.Role {
    /// `store`, `z_pk` and `entity`: never NULL.
    var isKey: Bool {
        switch self {
        case .store, .primaryKey, .entity: true
        default: false
        }
    }
}
