/// Checks that a model's cross-references hold: parents and destinations exist, inverses point
/// back, names are unique and inheritance has no cycle.
enum ModelConsistency {
    static func check(_ model: ManagedObjectModel, file: String) throws(ModelLoadError) {
        var seen = Set<String>()
        for entity in model.entities {
            guard seen.insert(entity.name).inserted else {
                throw .inconsistent(file: file, reason: "entity '\(entity.name)' is declared twice")
            }
        }
        if let (first, second) = model.entityNamesEqualIgnoringCase {
            throw .inconsistent(file: file, reason:
                "entities '\(first)' and '\(second)' differ only in case: Core Data cannot number them and would store both in one table")
        }
        for entity in model.entities {
            if let parent = entity.parentName {
                guard seen.contains(parent) else {
                    throw .inconsistent(file: file, reason: "entity '\(entity.name)' has unknown parent entity '\(parent)'")
                }
                guard model.ancestry(of: entity.name).last?.parentName == nil else {
                    throw .inconsistent(file: file, reason: "entity '\(entity.name)' is part of an inheritance cycle")
                }
            }
            var propertyNames = Set<String>()
            let names = entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
            for name in names where !propertyNames.insert(name).inserted {
                throw .inconsistent(file: file, reason: "entity '\(entity.name)' declares property '\(name)' twice")
            }
            for relationship in entity.relationships {
                guard seen.contains(relationship.destinationEntity) else {
                    throw .inconsistent(file: file, reason:
                        "relationship '\(entity.name).\(relationship.name)' points at unknown entity '\(relationship.destinationEntity)'")
                }
                if let inverse = relationship.inverseName, model.inverse(of: relationship) == nil {
                    throw .inconsistent(file: file, reason:
                        "relationship '\(entity.name).\(relationship.name)' names inverse '\(inverse)', which '\(relationship.destinationEntity)' does not have")
                }
            }
        }
    }
}
