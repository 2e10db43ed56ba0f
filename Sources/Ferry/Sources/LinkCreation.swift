import FerryModel

/// Which relationships get their missing destinations created (find or create): those asked
/// for, and those whose values match the destination's only single-attribute uniqueness
/// constraint (`Task.tags` by `Tag.name`), since such a value names exactly one record.
enum LinkCreation {
    /// `Entity.relationship` names for the entities of `model`.
    static func relationships(in model: ManagedObjectModel, entities: [String], linkAttributes: [String: String],
                              requested: Set<String>) -> Set<String> {
        var result = Set<String>()
        for entity in entities {
            for name in requested { result.insert(name.contains(".") ? name : "\(entity).\(name)") }
            for relationship in model.allRelationships(of: entity) {
                let unique = model.ancestry(of: relationship.destinationEntity).flatMap(\.uniquenessConstraints).filter { $0.count == 1 }
                let matched = linkAttributes[relationship.name] ?? (unique.count == 1 ? unique[0][0] : nil)
                if let matched, unique.contains([matched]) { result.insert("\(entity).\(relationship.name)") }
            }
        }
        return result
    }
}
