import FerryMigration
import FerryModel

/// What a file of one concrete entity holds, in order: `Z_PK`, the stored attributes (inherited
/// ones first), the to-one relationships (destination `Z_PK` or null) and the to-many
/// relationships (lists of destination `Z_PK`s, ordered ones in order).
struct EntityExportLayout {
    let entity: String
    let attributes: [Attribute]
    let toOne: [Relationship]
    let toMany: [Relationship]
    /// For each to-many, the entity that declares it (the key of its edge stream).
    let toManyOwners: [String]

    init?(model: ManagedObjectModel, entity: String) {
        guard let schema = RecordSchema(model: model, entityName: entity) else { return nil }
        self.entity = entity
        attributes = schema.attributes
        var toOne: [Relationship] = [], toMany: [Relationship] = [], owners: [String] = []
        for owner in model.ancestry(of: entity).reversed() {
            for relationship in owner.relationships where !relationship.isTransient {
                if !relationship.isToMany {
                    toOne.append(relationship)
                } else {
                    toMany.append(relationship)
                    owners.append(owner.name)
                }
            }
        }
        self.toOne = toOne
        self.toMany = toMany
        toManyOwners = owners
    }

    /// Column names in file order.
    var columnNames: [String] { ["Z_PK"] + attributes.map(\.name) + toOne.map(\.name) + toMany.map(\.name) }

    func manifestFields() -> [ExportManifest.Field] {
        attributes.map { ExportManifest.Field(name: $0.name, type: $0.type.xcodeName) }
    }

    func manifestLinks(model: ManagedObjectModel) -> [ExportManifest.Link] {
        (toOne + toMany).map {
            ExportManifest.Link(name: $0.name, destination: $0.destinationEntity, toMany: $0.isToMany,
                                ordered: $0.isOrdered, inverse: model.inverse(of: $0)?.name)
        }
    }
}
