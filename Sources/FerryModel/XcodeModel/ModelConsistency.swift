/// Checks that a model's cross-references hold, whichever file it came from (model XML, a
/// compiled model, a store's model cache): names are unique, parents exist and inheritance has no
/// cycle, no entity declares again a property it inherits, destinations exist, and every inverse
/// points back at the relationship that names it.
///
/// A pair of relationships that do not name each other (`A.b` naming `B.c` while `B.c` points
/// at a third entity, or two relationships naming one inverse) was written as given: a link of
/// one filled the other's column, making pairs no record gave, and everything verified.
enum ModelConsistency {
    static func check(_ model: ManagedObjectModel, file: String) throws(ModelLoadError) {
        if let problem = problem(in: model) { throw .inconsistent(file: file, reason: problem) }
    }

    /// The first rule the model breaks, said as a reason, or nil when it breaks none.
    static func problem(in model: ManagedObjectModel) -> String? {
        var seen = Set<String>()
        for entity in model.entities where !seen.insert(entity.name).inserted {
            return "entity '\(entity.name)' is declared twice"
        }
        if let (first, second) = model.entityNamesEqualIgnoringCase {
            return "entities '\(first)' and '\(second)' differ only in case: Core Data cannot number them and would store both in one table"
        }
        for entity in model.entities {
            if let parent = entity.parentName {
                guard seen.contains(parent) else { return "entity '\(entity.name)' has unknown parent entity '\(parent)'" }
                guard model.ancestry(of: entity.name).last?.parentName == nil else {
                    return "entity '\(entity.name)' is part of an inheritance cycle"
                }
            }
            if let problem = propertyProblem(of: entity, in: model) { return problem }
        }
        for entity in model.entities {
            for relationship in entity.relationships {
                if let problem = inverseProblem(of: relationship, declaredBy: entity, in: model) { return problem }
            }
        }
        return nil
    }

    /// A property name declared twice by the entity, or again after an ancestor declared it.
    private static func propertyProblem(of entity: Entity, in model: ManagedObjectModel) -> String? {
        var names = Set<String>()
        for name in entity.propertyNames where !names.insert(name).inserted {
            return "entity '\(entity.name)' declares property '\(name)' twice"
        }
        for ancestor in model.ancestry(of: entity.name).dropFirst() {
            if let name = ancestor.propertyNames.first(where: names.contains) {
                return "entity '\(entity.name)' declares property '\(name)', which it inherits from '\(ancestor.name)': Core Data allows one property of a name along an inheritance chain"
            }
        }
        return nil
    }

    /// Why `relationship` (declared by `entity`) has no destination or no inverse that names it
    /// back: the inverse must point at `entity` (or a sub-entity, which inherits the relationship)
    /// and name this relationship as its own inverse, or none (a one-sided pair).
    private static func inverseProblem(of relationship: Relationship, declaredBy entity: Entity, in model: ManagedObjectModel) -> String? {
        let name = "'\(entity.name).\(relationship.name)'"
        guard model.entity(named: relationship.destinationEntity) != nil else {
            return "relationship \(name) points at unknown entity '\(relationship.destinationEntity)'"
        }
        guard let inverseName = relationship.inverseName else { return nil }
        guard let inverse = model.inverse(of: relationship) else {
            return "relationship \(name) names inverse '\(inverseName)', which '\(relationship.destinationEntity)' does not have"
        }
        let inverseText = "'\(relationship.destinationEntity).\(inverseName)'"
        guard model.ancestry(of: inverse.destinationEntity).contains(where: { $0.name == entity.name }) else {
            return "relationship \(name) names inverse \(inverseText), which points at '\(inverse.destinationEntity)', not at '\(entity.name)'"
        }
        if let back = inverse.inverseName, back != relationship.name {
            return "relationship \(name) names inverse \(inverseText), whose own inverse is '\(back)': each of a pair must name the other"
        }
        return nil
    }
}
