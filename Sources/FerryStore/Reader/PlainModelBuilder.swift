import FerryModel

/// Describes the tables of a plain SQLite database as entities of a model.
struct PlainModelBuilder {
    let schema: DatabaseSchema
    let database: SQLiteDatabase

    /// One `PlainTable` per table, in schema order, and the model made of them.
    func build() throws(SQLiteError) -> (tables: [PlainTable], model: ManagedObjectModel) {
        // Bookkeeping names would collide with Core Data's own tables once prefixed with Z.
        var entityNames = PlainNames(reserved: ["_PRIMARYKEY", "_METADATA", "_MODELCACHE"])
        var tables = schema.tables.map { table in
            PlainTable(entity: entityNames.claim(table.name, prefix: "T"), table: table.name, key: key(of: table),
                       attributes: [], foreignKeys: [])
        }
        var propertyNames = [PlainNames](repeating: PlainNames(), count: tables.count)
        for (position, table) in schema.tables.enumerated() {
            let links = try foreignKeys(of: table, tables: tables)
            for column in table.columns {
                if let parent = links[column.name.uppercased()] {
                    tables[position].foreignKeys.append(PlainForeignKey(
                        relationship: propertyNames[position].claim(column.name, prefix: "r"), column: column.name,
                        destinationEntity: tables[parent].entity, inverse: ""))
                } else {
                    tables[position].attributes.append(PlainColumn(
                        attribute: propertyNames[position].claim(column.name, prefix: "c"), column: column.name,
                        declaredType: column.declaredType, type: PlainColumnType.attributeType(declared: column.declaredType)))
                }
            }
        }
        for position in tables.indices {
            for link in tables[position].foreignKeys.indices {
                let foreignKey = tables[position].foreignKeys[link]
                guard let parent = tables.firstIndex(where: { $0.entity == foreignKey.destinationEntity }) else { continue }
                tables[position].foreignKeys[link].inverse =
                    propertyNames[parent].claim("\(tables[position].entity)_\(foreignKey.relationship)", prefix: "r")
            }
        }
        return (tables, model(of: tables))
    }

    private func key(of table: DatabaseSchema.Table) -> PlainRowKey {
        let keyColumns = table.columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }
        if keyColumns.count == 1, let only = keyColumns.first {
            let isIntegerKey = table.isWithoutRowID
                ? PlainColumnType.attributeType(declared: only.declaredType) == .integer64
                : only.declaredType.uppercased() == "INTEGER"
            if isIntegerKey { return .column(only.name) }
        }
        return table.isWithoutRowID ? .position(primaryKeyColumns: keyColumns.map(\.name)) : .rowid
    }

    /// Single-column foreign keys that point at a parent's key column: upper-cased column name →
    /// position of the parent table.
    private func foreignKeys(of table: DatabaseSchema.Table, tables: [PlainTable]) throws(SQLiteError) -> [String: Int] {
        let list = try database.prepare("PRAGMA foreign_key_list(\(SQLIdentifier.quoted(table.name)))")
        var columnsByKey: [Int64: [(parent: String, from: String, to: String?)]] = [:]
        while try list.step() {
            columnsByKey[list.int64(at: 0), default: []].append((list.string(at: 2) ?? "", list.string(at: 3) ?? "", list.string(at: 4)))
        }
        var result: [String: Int] = [:]
        for id in columnsByKey.keys.sorted() {
            guard let columns = columnsByKey[id], columns.count == 1, let link = columns.first,
                  let parent = tables.firstIndex(where: { $0.table.lowercased() == link.parent.lowercased() }),
                  case .column(let parentKey) = tables[parent].key,
                  link.to.map({ $0.lowercased() == parentKey.lowercased() }) ?? true,
                  result[link.from.uppercased()] == nil else { continue }
            result[link.from.uppercased()] = parent
        }
        return result
    }

    private func model(of tables: [PlainTable]) -> ManagedObjectModel {
        var relationships: [String: [Relationship]] = [:]
        for table in tables {
            for link in table.foreignKeys {
                relationships[table.entity, default: []].append(Relationship(
                    name: link.relationship, destinationEntity: link.destinationEntity, inverseName: link.inverse,
                    inverseEntity: link.destinationEntity))
                relationships[link.destinationEntity, default: []].append(Relationship(
                    name: link.inverse, destinationEntity: table.entity, inverseName: link.relationship,
                    inverseEntity: table.entity, isToMany: true))
            }
        }
        let entities = tables.map { table in
            Entity(name: table.entity, attributes: table.attributes.map { Attribute(name: $0.attribute, type: $0.type) },
                   relationships: relationships[table.entity] ?? [])
        }
        return ManagedObjectModel(name: "PlainSQLite", entities: entities)
    }
}
