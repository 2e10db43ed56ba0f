import FerryModel

/// Computes the tables and indexes of a `StoreLayout` (coredata-format.md §3–§5).
struct StoreLayoutBuilder {
    let model: ManagedObjectModel
    let entityNumbers: [String: Int]
    /// The store being read, when the layout describes an existing store.
    let existing: ExistingStoreFacts?
    /// The keys of to-many relationships without an inverse, by destination.
    private let toManyKeys: ToManyKeys
    private(set) var tables: [TableLayout] = []
    private(set) var indexes: [IndexLayout] = []
    /// Which model element claimed each table name, to report collisions.
    private var tableOwners: [String: String] = [:]

    init(model: ManagedObjectModel, existing: ExistingStoreFacts?) throws(StoreLayoutError) {
        if let (first, second) = model.entityNamesEqualIgnoringCase {
            throw .entityNamesDifferOnlyInCase(first: first, second: second)
        }
        self.model = model
        self.existing = existing
        self.entityNumbers = existing?.entityNumbers(for: model) ?? model.entityNumbers
        toManyKeys = try ToManyKeys(model: model, entityNumbers: entityNumbers)
        for table in BookkeepingTables.all { tableOwners[table.name] = "bookkeeping table \(table.name)" }
    }

    mutating func build() throws(StoreLayoutError) {
        let roots = model.entities.filter { entity in
            entity.parentName.map { model.entity(named: $0) == nil } ?? true
        }.sorted { (entityNumbers[$0.name] ?? .max) < (entityNumbers[$1.name] ?? .max) }
        for root in roots {
            let members = model.hierarchy(below: root.name)
            let table = try entityTable(root: root, members: members)
            try add(table, owner: "entity \(root.name)")
            indexes += try entityIndexes(table: table, members: members)
            for member in members {
                for relationship in sortedByName(member.relationships) where relationship.isToMany && !relationship.isTransient {
                    if let join = try joinTable(entity: member, relationship: relationship) {
                        try add(join, owner: "relationship \(member.name).\(relationship.name)")
                        indexes.append(joinIndex(join))
                    }
                }
            }
        }
    }

    // MARK: Entity tables

    private func entityTable(root: Entity, members: [Entity]) throws(StoreLayoutError) -> TableLayout {
        let name = try SQLName.prefixed(root.name, entity: root.name)
        var namer = ColumnNamer(reserved: ["Z_PK", "Z_ENT", "Z_OPT"])
        var grouped: [(group: ColumnGroup, column: ColumnLayout)] = []
        for entity in members {
            for attribute in sortedByName(entity.attributes) where !attribute.isTransient {
                guard let group = ColumnGroup(attribute.type), let type = attribute.type.sqlColumnType else { continue }
                let column = namer.claim(try SQLName.prefixed(attribute.name, entity: entity.name))
                grouped.append((group, ColumnLayout(name: column, declaredType: type,
                                                    role: .attribute(entity: entity.name, name: attribute.name))))
            }
            // Each key with its `Z<n>_` column, then the entity's order keys (DDG Bookmarks:
            // `ZFAVORITEFOLDER, ZPARENT, Z_FOK_FAVORITEFOLDER, Z_FOK_PARENT`), then the keys of
            // to-many relationships without an inverse into the entity (CartKit: `ZITEM, Z2MODIFIERS`).
            var orderKeys: [ColumnLayout] = []
            for relationship in sortedByName(entity.relationships) where !relationship.isToMany && !relationship.isTransient {
                for column in try foreignKeyColumns(entity: entity, relationship: relationship, namer: &namer) {
                    if case .orderKey = column.role { orderKeys.append(column) } else { grouped.append((.integer, column)) }
                }
            }
            grouped += orderKeys.map { (.integer, $0) }
            grouped += try toManyKeys.columns(into: entity, namer: &namer).map { (.integer, $0) }
        }
        let ordered = grouped.enumerated()
            .sorted { ($0.element.group, $0.offset) < ($1.element.group, $1.offset) }
            .map(\.element.column)
        let columns = [
            ColumnLayout(name: "Z_PK", declaredType: "INTEGER", role: .primaryKey),
            ColumnLayout(name: "Z_ENT", declaredType: "INTEGER", role: .entityNumber),
            ColumnLayout(name: "Z_OPT", declaredType: "INTEGER", role: .optimisticLock),
        ] + ordered
        let definitions = columns.map { column in
            column.role == .primaryKey ? "\(column.name) \(column.declaredType) PRIMARY KEY" : "\(column.name) \(column.declaredType)"
        }
        return TableLayout(name: name, kind: .entity(root: root.name, members: members.map(\.name)), columns: columns,
                           createStatement: "CREATE TABLE \(name) ( \(definitions.joined(separator: ", ")) )")
    }

    /// `Z<REL>`, then `Z<n>_<REL>` when the destination has sub-entities, then `Z_FOK_<REL>` when
    /// the inverse is an ordered to-many.
    private func foreignKeyColumns(entity: Entity, relationship: Relationship,
                                   namer: inout ColumnNamer) throws(StoreLayoutError) -> [ColumnLayout] {
        let destination = relationship.destinationEntity
        guard let destinationNumber = entityNumbers[destination] else {
            throw .unknownDestination(entity: entity.name, relationship: relationship.name, destination: destination)
        }
        let key = namer.claim(try SQLName.prefixed(relationship.name, entity: entity.name))
        let bare = key.dropFirst()
        var columns = [ColumnLayout(name: key, declaredType: "INTEGER",
                                    role: .toOne(entity: entity.name, relationship: relationship.name))]
        if !model.subentities(of: destination).isEmpty {
            columns.append(ColumnLayout(name: namer.claim("Z\(destinationNumber)_\(bare)"), declaredType: "INTEGER",
                                        role: .toOneEntityNumber(entity: entity.name, relationship: relationship.name)))
        }
        if let inverse = model.inverse(of: relationship), inverse.isToMany, inverse.isOrdered {
            columns.append(ColumnLayout(name: namer.claim("Z_FOK_\(bare)"), declaredType: "INTEGER",
                                        role: .orderKey(entity: entity.name, relationship: relationship.name)))
        }
        return columns
    }

    // MARK: Entity indexes

    /// Foreign-key indexes (to-one keys and to-many keys alike), the `Z_ENT` index of a hierarchy,
    /// then per entity its legacy indexed attributes, fetch indexes and uniqueness constraints.
    private func entityIndexes(table: TableLayout, members: [Entity]) throws(StoreLayoutError) -> [IndexLayout] {
        var result: [IndexLayout] = []
        for column in table.columns {
            switch column.role {
            case .toOne, .toManyKey:
                result.append(plainIndex(name: "\(table.name)_\(column.name)_INDEX", table: table.name, columns: [column.name]))
            default:
                continue
            }
        }
        if members.count > 1 {
            result.append(plainIndex(name: "\(table.name)_Z_ENT_INDEX", table: table.name, columns: ["Z_ENT"]))
        }
        for entity in members {
            for attribute in sortedByName(entity.attributes) where attribute.isIndexed && !attribute.isTransient {
                let element = FetchIndex.Element(property: attribute.name)
                result.append(try collatedIndex(entity: entity, suffix: attribute.name, elements: [element],
                                                unique: false, table: table))
            }
            let indexed = Set(entity.attributes.filter(\.isIndexed).map(\.name))
            for fetchIndex in entity.fetchIndexes {
                if fetchIndex.elements.contains(where: { $0.kind == .rTree }) {
                    throw .unsupportedRTreeIndex(entity: entity.name, index: fetchIndex.name)
                }
                // A to-many relationship has no column here: Core Data indexes nothing for it
                // (Accounts3, Photos), and an index of nothing but such elements is not made.
                let elements = fetchIndex.elements.filter { !isToMany($0.property, of: entity) }
                guard !elements.isEmpty else { continue }
                // One to-one relationship alone is indexed by its foreign-key index already: no
                // fetch index and no twin (Screen Time's `Usage`, Accounts3's `Account`).
                if elements.count == 1, isRelationship(elements[0].property, of: entity) { continue }
                result.append(try collatedIndex(entity: entity, suffix: fetchIndex.name, elements: elements,
                                                unique: false, table: table))
                // The twin (coredata-format.md §5): a one-element, ascending, binary fetch index
                // makes its property indexed, so Core Data also creates `Z_<Entity>_<property>`.
                if existing?.hasTwinIndexes != false, fetchIndex.elements.count == 1, let element = elements.first, element.isAscending,
                   element.kind == .binary, element.property != fetchIndex.name, !indexed.contains(element.property) {
                    result.append(try collatedIndex(entity: entity, suffix: element.property, elements: [element],
                                                    unique: false, table: table))
                }
            }
            for constraint in entity.uniquenessConstraints where !constraint.isEmpty && existing?.hasUniquenessIndexes != false {
                let suffix = "UNIQUE_" + constraint.joined(separator: "_")
                result.append(try collatedIndex(entity: entity, suffix: suffix,
                                                elements: constraint.map { FetchIndex.Element(property: $0) },
                                                unique: true, table: table))
            }
        }
        return result
    }

    private func plainIndex(name: String, table: String, columns: [String]) -> IndexLayout {
        IndexLayout(name: name, table: table, columns: columns, isUnique: false,
                    createStatement: "CREATE INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))")
    }

    /// `CREATE [UNIQUE] INDEX Z_<Entity>_<suffix> ON <TABLE> (<COL> COLLATE BINARY ASC, …)`.
    private func collatedIndex(entity: Entity, suffix: String, elements: [FetchIndex.Element], unique: Bool,
                               table: TableLayout) throws(StoreLayoutError) -> IndexLayout {
        let name = "Z_\(try SQLName.checked(entity.name, entity: entity.name))_\(try SQLName.checked(suffix, entity: entity.name))"
        var columns: [String] = []
        var terms: [String] = []
        for element in elements {
            guard let column = propertyColumn(entity: entity, property: element.property, table: table) else {
                throw .unknownIndexProperty(entity: entity.name, index: name, property: element.property)
            }
            columns.append(column)
            terms.append("\(column) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")")
        }
        let create = unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX"
        return IndexLayout(name: name, table: table.name, columns: columns, isUnique: unique,
                           createStatement: "\(create) \(name) ON \(table.name) (\(terms.joined(separator: ", ")))")
    }

    /// Whether `property` of `entity` (or an ancestor) is a to-many relationship.
    private func isToMany(_ property: String, of entity: Entity) -> Bool {
        model.allRelationships(of: entity.name).contains { $0.name == property && $0.isToMany }
    }

    /// Whether `property` of `entity` (or an ancestor) is a relationship.
    private func isRelationship(_ property: String, of entity: Entity) -> Bool {
        model.allRelationships(of: entity.name).contains { $0.name == property }
    }

    /// The column of an attribute or to-one relationship of `entity`, inherited ones included.
    private func propertyColumn(entity: Entity, property: String, table: TableLayout) -> String? {
        for declaring in model.ancestry(of: entity.name) {
            for column in table.columns {
                switch column.role {
                case .attribute(declaring.name, property), .toOne(declaring.name, property): return column.name
                default: continue
                }
            }
        }
        return nil
    }

    // MARK: Join tables

    /// The join table of a many-to-many relationship, when `relationship` is the side the table is
    /// named after; nil for the other side, for to-many relationships with a to-one inverse and for
    /// those without an inverse (`ToManyKeys`).
    ///
    /// In an existing store, the table it has decides. For a new store the table is named after
    /// the side whose declaring entity's name comes first in `EntityNameOrder`: this fits all 17
    /// join tables of the corpus stores (framework 419–1344), where "the lower `Z_ENT`" fails on
    /// apptentive's `Z_6DISPLAYTYPES` (`ATMessage` = 6, a sub-entity, over `ATMessageDisplayType`
    /// = 2). For a pair within one entity no rule fits every store seen (`Z_1FAVORITES` over
    /// `favoriteFolders`, Kik's `Z_6BANSINVERSE` but `Z_6MEMBERS`): the relationship name that
    /// sorts later wins [?].
    private func joinTable(entity: Entity, relationship: Relationship) throws(StoreLayoutError) -> TableLayout? {
        guard entityNumbers[relationship.destinationEntity] != nil else {
            throw .unknownDestination(entity: entity.name, relationship: relationship.name,
                                      destination: relationship.destinationEntity)
        }
        guard let inverse = model.inverse(of: relationship),
              let inverseOwner = declaringEntity(of: inverse.name, below: relationship.destinationEntity) else { return nil }
        guard inverse.isToMany, let ownNumber = entityNumbers[entity.name],
              let otherNumber = entityNumbers[inverseOwner.name] else { return nil }
        let relationshipName = try SQLName.checked(relationship.name, entity: entity.name).uppercased()
        let inverseName = try SQLName.checked(inverse.name, entity: inverseOwner.name).uppercased()
        let name = "Z_\(ownNumber)\(relationshipName)"
        let otherName = "Z_\(otherNumber)\(inverseName)"
        let isNamingSide: Bool
        if let tables = existing?.tableNames, tables.contains(name) != tables.contains(otherName) {
            isNamingSide = tables.contains(name)
        } else if entity.name != inverseOwner.name {
            isNamingSide = EntityNameOrder.precedes(entity.name, inverseOwner.name)
        } else {
            isNamingSide = !relationship.name.utf8.lexicographicallyPrecedes(inverse.name.utf8)
        }
        guard isNamingSide else { return nil }

        var namer = ColumnNamer(reserved: [])
        let ownKeys = namer.claim("Z_\(ownNumber)\(inverseName)")
        let otherKeys = namer.claim("Z_\(otherNumber)\(relationshipName)")
        var columns = [
            ColumnLayout(name: ownKeys, declaredType: "INTEGER",
                         role: .joinKey(entity: entity.name, relationship: inverse.name)),
            ColumnLayout(name: otherKeys, declaredType: "INTEGER",
                         role: .joinKey(entity: inverseOwner.name, relationship: relationship.name)),
        ]
        if relationship.isOrdered {
            columns.append(ColumnLayout(name: namer.claim("Z_FOK_" + otherKeys.dropFirst(2)), declaredType: "INTEGER",
                                        role: .joinOrderKey(entity: entity.name, relationship: relationship.name)))
        }
        if inverse.isOrdered, relationship != inverse || entity.name != inverseOwner.name {
            columns.append(ColumnLayout(name: namer.claim("Z_FOK_" + ownKeys.dropFirst(2)), declaredType: "INTEGER",
                                        role: .joinOrderKey(entity: inverseOwner.name, relationship: inverse.name)))
        }
        let definitions = columns.map { "\($0.name) \($0.declaredType)" }.joined(separator: ", ")
        return TableLayout(name: name, kind: .join(entity: entity.name, relationship: relationship.name),
                           columns: columns,
                           createStatement: "CREATE TABLE \(name) ( \(definitions), PRIMARY KEY (\(ownKeys), \(otherKeys)) )")
    }

    /// `<TABLE>_<col2>_INDEX ON <TABLE> (col2, col1)`.
    private func joinIndex(_ table: TableLayout) -> IndexLayout {
        let first = table.columns[0].name, second = table.columns[1].name
        return plainIndex(name: "\(table.name)_\(second)_INDEX", table: table.name, columns: [second, first])
    }

    /// The entity at or above `entityName` that declares the relationship `name`.
    private func declaringEntity(of name: String, below entityName: String) -> Entity? {
        model.ancestry(of: entityName).first { $0.relationship(named: name) != nil }
    }

    // MARK: Helpers

    private mutating func add(_ table: TableLayout, owner: String) throws(StoreLayoutError) {
        if let first = tableOwners[table.name] {
            throw .tableNameCollision(table: table.name, first: first, second: owner)
        }
        tableOwners[table.name] = owner
        tables.append(table)
    }

    private func sortedByName(_ attributes: [Attribute]) -> [Attribute] {
        attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    private func sortedByName(_ relationships: [Relationship]) -> [Relationship] {
        relationships.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }
}
