import FerryModel
import FerryPostgres

/// The table of one root entity and its sub-entities (see `PostgresLayout`).
public struct PostgresEntityTable: Sendable {
    /// The root entity.
    public let root: String
    public let name: String
    /// The root and every entity below it, in pre-order.
    public let entities: [String]
    public let columns: [PostgresColumn]
    public let foreignKeys: [PostgresForeignKey]
    public let uniqueIndexes: [PostgresUniqueIndex]

    init(root: String, name: String, model: ManagedObjectModel, tableNames: [String: String]) throws(PostgresTransferError) {
        self.root = root
        self.name = name
        let hierarchy = model.hierarchy(below: root)
        entities = hierarchy.map(\.name)
        // The model's properties take their own names first; Ferry's helper columns (a date's
        // `_exact`, an ordered list's `_position`) give way to a property named so, which
        // someone querying the table reads by that name.
        var planned: [(wanted: String, type: PostgresColumnType, role: PostgresColumn.Role, isHelper: Bool)] = []
        var foreignKeys: [(column: Int, table: String, onDelete: PostgresDeleteAction)] = []
        for entity in hierarchy {
            for attribute in entity.attributes.inNameOrder where !attribute.isTransient {
                guard let type = PostgresColumnType(attribute.type) else { continue }
                planned.append((attribute.name, type, .attribute(entity: entity.name, name: attribute.name), false))
                if type == .timestamptz {
                    planned.append((attribute.name + "_exact", .doublePrecision, .exactDate(entity: entity.name, name: attribute.name), true))
                }
            }
            for relationship in entity.relationships.inNameOrder where !relationship.isToMany && !relationship.isTransient {
                guard let destination = model.rootEntity(of: relationship.destinationEntity)?.name, let target = tableNames[destination] else {
                    throw .unsupportedModel("\(entity.name).\(relationship.name) points at \(relationship.destinationEntity), which is not in the model")
                }
                let inverse = model.inverse(of: relationship)
                foreignKeys.append((planned.count, target, PostgresDeleteAction(rule: inverse?.deleteRule)))
                planned.append((relationship.name, .bigint, .toOne(entity: entity.name, relationship: relationship.name), false))
                if let inverse, inverse.isToMany, inverse.isOrdered {
                    planned.append((relationship.name + "_position", .bigint, .position(entity: entity.name, relationship: relationship.name), true))
                }
            }
        }
        var columnNames = PostgresNamer(reserving: [PostgresLayout.storeColumn, PostgresLayout.primaryKeyColumn, PostgresLayout.entityColumn])
        var names = [String](repeating: "", count: planned.count)
        for pass in [false, true] {
            for (index, column) in planned.enumerated() where column.isHelper == pass { names[index] = columnNames.claim(column.wanted) }
        }
        let columns = [
            PostgresColumn(name: PostgresLayout.storeColumn, type: .uuid, role: .store),
            PostgresColumn(name: PostgresLayout.primaryKeyColumn, type: .bigint, role: .primaryKey),
            PostgresColumn(name: PostgresLayout.entityColumn, type: .text, role: .entity),
        ] + zip(planned, names).map { column, name in PostgresColumn(name: name, type: column.type, role: column.role) }
        self.columns = columns
        self.foreignKeys = foreignKeys.map { PostgresForeignKey(column: names[$0.column], table: $0.table, onDelete: $0.onDelete) }
        uniqueIndexes = try Self.uniqueIndexes(hierarchy, columns: columns, model: model)
    }

    /// The column with this role.
    public func column(_ role: PostgresColumn.Role) -> PostgresColumn? {
        columns.first { $0.role == role }
    }

    /// One unique index per uniqueness constraint, on `store` and the constraint's columns; a
    /// sub-entity's only over the rows of its own hierarchy. A constraint an ancestor already
    /// declares is not repeated. The index holds what tells the store's values apart, as SQLite's
    /// does, within PostgreSQL's limits (`PostgresUniqueIndex.key`).
    private static func uniqueIndexes(_ hierarchy: [Entity], columns: [PostgresColumn],
                                      model: ManagedObjectModel) throws(PostgresTransferError) -> [PostgresUniqueIndex] {
        var indexes: [PostgresUniqueIndex] = []
        for entity in hierarchy {
            let inherited = Set(model.ancestry(of: entity.name).dropFirst().flatMap(\.uniquenessConstraints))
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty && !inherited.contains(constraint) {
                var keys: [String] = []
                for property in constraint {
                    let owner = model.declaringEntity(ofProperty: property, in: entity.name)?.name ?? entity.name
                    guard let column = columns.first(where: {
                        $0.role == .attribute(entity: owner, name: property) || $0.role == .toOne(entity: owner, relationship: property)
                    }) else {
                        throw .unsupportedModel("the uniqueness constraint (\(constraint.joined(separator: ", "))) of \(entity.name) "
                            + "names \(property), which is not a stored attribute or to-one relationship")
                    }
                    let exact = columns.first { $0.role == .exactDate(entity: owner, name: property) }
                    keys += PostgresUniqueIndex.key(column, exact: exact)
                }
                let rows = entity.parentName == nil ? nil : model.hierarchy(below: entity.name).map(\.name)
                indexes.append(PostgresUniqueIndex(keys: keys, entities: rows))
            }
        }
        return indexes
    }
}

/// A column of an entity table.
public struct PostgresColumn: Sendable, Equatable {
    public enum Role: Sendable, Equatable {
        case store, primaryKey, entity
        /// An attribute, by the entity that declares it.
        case attribute(entity: String, name: String)
        /// A to-one relationship's key, by the entity that declares it.
        case toOne(entity: String, relationship: String)
        /// The order key of a to-one whose inverse is an ordered to-many.
        case position(entity: String, relationship: String)
        /// A date attribute's value in seconds since 2001 exactly as Core Data keeps it, beside
        /// its `timestamptz`, in the rows whose date has digits finer than a microsecond (NULL
        /// in the others).
        case exactDate(entity: String, name: String)
    }

    public let name: String
    public let type: PostgresColumnType
    public let role: Role
}

/// A uniqueness constraint: `store` and `columns` are unique, over the rows of `entities` (all
/// rows when nil).
public struct PostgresUniqueIndex: Sendable, Equatable {
    /// The index's key expressions after the store column, SQL ready (identifiers quoted).
    public let keys: [String]
    public let entities: [String]?

    /// What a column of a uniqueness constraint puts in the index: the column; a text or bytea
    /// column's MD5 (an index entry holds at most 2,704 bytes, and a store refused a String of
    /// 8,000 characters SQLite keeps unique); a date with its exact seconds beside it (dates
    /// finer than a microsecond were one microsecond for the index, and a valid store was
    /// refused; `NaN` stands for the exact value of a date the microsecond holds).
    static func key(_ column: PostgresColumn, exact: PostgresColumn?) -> [String] {
        let quoted = PostgresIdentifier.quoted(column.name)
        switch column.type {
        case .text, .bytea: return ["(md5(\(quoted)))"]
        case .timestamptz:
            guard let exact else { return [quoted] }
            return [quoted, "(COALESCE(\(PostgresIdentifier.quoted(exact.name)), 'NaN'::double precision))"]
        default: return [quoted]
        }
    }
}

/// Attributes and relationships, which tables list in order of their names.
protocol NamedProperty {
    var name: String { get }
}

extension Attribute: NamedProperty {}
extension Relationship: NamedProperty {}

extension Array where Element: NamedProperty {
    /// In byte order of the names: the same tables whatever order a model lists its properties
    /// in (an Xcode model and the same model archived in a store's cache differ there).
    var inNameOrder: [Element] {
        sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}
