import FerryModel

/// A relationship by the entity that declares it.
struct RelationshipID: Hashable, Sendable {
    let entity: String
    let relationship: String
}

/// Finds the `RelationshipPlacement` of every stored relationship of a model in the tables of
/// its layout: a to-one in its own key column; a to-many in its to-one inverse's key, in its
/// own `Z<n><REL>` key when it has no inverse (`ToManyKeys`), or in the join table it shares
/// with its many-to-many inverse, from whichever side the table is named after.
struct RelationshipPlacer {
    let model: ManagedObjectModel
    let tables: [TableLayout]

    /// The placements by declaring entity; a relationship whose columns are missing has none.
    func placements() -> [RelationshipID: RelationshipPlacement] {
        var result: [RelationshipID: RelationshipPlacement] = [:]
        for entity in model.entities {
            for relationship in entity.relationships where !relationship.isTransient {
                let id = RelationshipID(entity: entity.name, relationship: relationship.name)
                result[id] = placement(of: relationship, declaredBy: entity.name)
            }
        }
        return result
    }

    private func placement(of relationship: Relationship, declaredBy owner: String) -> RelationshipPlacement? {
        guard relationship.isToMany else {
            return foreignKey(role: .toOne(entity: owner, relationship: relationship.name), holder: owner).map { .sourceRow($0) }
        }
        let destination = relationship.destinationEntity
        guard let inverse = model.inverse(of: relationship),
              let inverseOwner = model.declaringEntity(ofProperty: inverse.name, in: destination)?.name else {
            let role = ColumnRole.toManyKey(entity: owner, relationship: relationship.name, destination: destination)
            return foreignKey(role: role, holder: destination).map { .destinationRows($0) }
        }
        guard inverse.isToMany else {
            return foreignKey(role: .toOne(entity: inverseOwner, relationship: inverse.name), holder: inverseOwner)
                .map { .destinationRows($0) }
        }
        let own = RelationshipID(entity: owner, relationship: relationship.name)
        let other = RelationshipID(entity: inverseOwner, relationship: inverse.name)
        for table in tables {
            guard case .join(let entity, let name) = table.kind, table.columns.count >= 2 else { continue }
            let namedHere = RelationshipID(entity: entity, relationship: name)
            guard namedHere == own || namedHere == other else { continue }
            let (source, target) = namedHere == own ? (table.columns[0], table.columns[1]) : (table.columns[1], table.columns[0])
            return .joinTable(JoinTablePlacement(
                table: table.name, source: source.name, destination: target.name,
                order: table.column(for: .joinOrderKey(entity: owner, relationship: relationship.name))?.name,
                inverseOrder: own == other ? nil : table.column(for: .joinOrderKey(entity: inverseOwner, relationship: inverse.name))?.name,
                isOwnInverse: own == other))
        }
        return nil
    }

    /// The key with `role` on rows of `holder`, with the `Z<n>_` and `Z_FOK_` columns of a to-one key.
    private func foreignKey(role: ColumnRole, holder: String) -> ForeignKeyPlacement? {
        guard let root = model.rootEntity(of: holder)?.name,
              let table = tables.first(where: { $0.kind.isEntityTable(root: root) }),
              let key = table.column(for: role) else { return nil }
        var entityNumber: String?, orderKey: String?, isToManyKey = false
        switch role {
        case .toOne(let entity, let relationship):
            entityNumber = table.column(for: .toOneEntityNumber(entity: entity, relationship: relationship))?.name
            orderKey = table.column(for: .orderKey(entity: entity, relationship: relationship))?.name
        default:
            isToManyKey = true
        }
        return ForeignKeyPlacement(table: table.name, key: key.name, entityNumber: entityNumber, orderKey: orderKey,
                                   holder: holder, isToManyKey: isToManyKey)
    }
}
