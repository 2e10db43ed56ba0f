import FerryModel

/// Infers the mapping between two model versions: what Core Data's lightweight migration infers,
/// and the lossless or checked type conversions of `ValueConversion`.
///
/// - Entities and properties match one to one by renaming identifier (Xcode's `elementID`, which
///   defaults to the name), as `RenamingMatch` says. Chains over several versions work step by step.
/// - Added attributes take their default; removed ones are dropped; optional → required uses the
///   default for nil values (a record whose required value stays nil is rejected).
/// - Relationships match the same way when their destinations map onto each other (or onto an
///   entity below the destination: records of an entity that becomes abstract are written as one
///   of its sub-entities); to-one → to-many and ordering changes carry the links.
/// - Rename candidates (identical definitions, similar names) are only suggested, never applied.
public enum MappingInference {
    public static func infer(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> MappingModel {
        var mapping = MappingModel(sourceVersion: source.name, destinationVersion: destination.name)
        let match = RenamingMatch(destination.entities, among: source.entities)
        var pairs: [(Entity, Entity)] = []
        for (index, target) in destination.entities.enumerated() {
            guard let origin = match.source(of: index, in: source.entities) else {
                mapping.addedEntities.append(target.name)
                // A record becomes one object: of two entities matching one source, the first to
                // match (see RenamingMatch) takes its records, and the other is new unless a
                // written mapping sends the records there instead.
                if let taken = match.takenFrom[index], let keeper = match.target(taking: taken) {
                    let origin = source.entities[taken].name, kept = destination.entities[keeper].name
                    mapping.suggestions.append("entities \(kept) and \(target.name) both match \(origin): its records become \(kept) objects; "
                        + "\(target.name) is new (a written mapping block `entity \(origin) -> \(target.name)` sends them there instead)")
                }
                continue
            }
            pairs.append((origin, target))
        }
        let matchedSources = Set(pairs.map(\.0.name))
        let entityMap = Dictionary(pairs.map { ($0.0.name, $0.1.name) }, uniquingKeysWith: { first, _ in first })
        for (origin, target) in pairs where !target.isAbstract {
            mapping.entities.append(entityMapping(origin, target, source: source, destination: destination,
                                                  entityMap: entityMap, suggestions: &mapping.suggestions))
        }
        for (origin, target) in pairs where target.isAbstract && !origin.isAbstract {
            mapping.suggestions.append("\(origin.name) becomes abstract \(target.name): its records need a written mapping to a concrete entity")
            mapping.unmappedEntities[origin.name] = "\(target.name) is abstract in \(destination.name): a written mapping must say which entity "
                + "its own records become (an 'entity \(origin.name) -> ENTITY' block in \"\(source.name) to \(destination.name).mapping\")"
        }
        mapping.droppedEntities = source.entities.map(\.name).filter { !matchedSources.contains($0) }
        for added in mapping.addedEntities {
            guard let target = destination.entity(named: added) else { continue }
            let targetAttributes = Set(destination.allAttributes(of: added).map(\.name))
            for dropped in mapping.droppedEntities {
                let droppedAttributes = Set(source.allAttributes(of: dropped).map(\.name))
                if !targetAttributes.isEmpty, targetAttributes == droppedAttributes || Naming.isSimilar(dropped, target.name) {
                    mapping.suggestions.append("entity \(added) could be a rename of \(dropped): set its renaming identifier to \"\(dropped)\" to carry the records")
                }
            }
        }
        return mapping
    }

    static func entityMapping(_ origin: Entity, _ target: Entity, source: ManagedObjectModel, destination: ManagedObjectModel,
                                      entityMap: [String: String], suggestions: inout [String]) -> EntityMapping {
        var mapping = EntityMapping(source: origin.name, destination: target.name)
        let sourceAttributes = source.allAttributes(of: origin.name).filter { !$0.isTransient }
        var usedSources = Set<String>()
        var unmatched: [Attribute] = []
        let targets = destination.allAttributes(of: target.name).filter { !$0.isTransient && $0.type.sqlColumnType != nil }
        let match = RenamingMatch(targets, among: sourceAttributes)
        for (index, attribute) in targets.enumerated() {
            guard let from = match.source(of: index, in: sourceAttributes) else {
                mapping.attributes.append(AttributeMapping(destination: attribute.name, rule: .defaultValue))
                unmatched.append(attribute)
                if let taken = match.takenFrom[index], let keeper = match.target(taking: taken) {
                    suggestions.append("\(target.name).\(attribute.name) is new: \(origin.name).\(sourceAttributes[taken].name) is carried to "
                        + "\(targets[keeper].name) by its renaming identifier (a written rule `\(attribute.name) = \(sourceAttributes[taken].name)` copies it here too)")
                }
                continue
            }
            usedSources.insert(from.name)
            if from.type == attribute.type {
                mapping.attributes.append(AttributeMapping(destination: attribute.name, rule: .copy(source: from.name)))
            } else {
                // A change inference cannot convert still names its source: every value there
                // fails its conversion and rejects its record (nil passes), so no value is
                // dropped while the record is carried without it.
                mapping.attributes.append(AttributeMapping(destination: attribute.name,
                                                           rule: .convert(source: from.name, from: from.type, to: attribute.type)))
                if ValueConversion.kind(from: from.type, to: attribute.type) == nil {
                    suggestions.append("\(target.name).\(attribute.name): \(from.type.xcodeName) → \(attribute.type.xcodeName) is not inferable: "
                        + "a record holding a value there is rejected until a written rule says how to carry it")
                }
            }
        }
        let leftovers = sourceAttributes.filter { !usedSources.contains($0.name) }
        for attribute in unmatched {
            for candidate in leftovers where Naming.isSimilar(candidate.name, attribute.name)
                || (candidate.type == attribute.type && candidate.isOptional == attribute.isOptional) {
                suggestions.append("\(target.name).\(attribute.name) could be \(origin.name).\(candidate.name) renamed (set elementID=\"\(candidate.name)\" or write a rule)")
            }
        }
        let sourceRelationships = source.allRelationships(of: origin.name).filter { !$0.isTransient }
        let targetRelationships = destination.allRelationships(of: target.name).filter { !$0.isTransient }
        // Its records' destinations must be objects the relationship can hold: of its destination
        // entity or one below it (records of an entity that becomes abstract are written as one
        // of its sub-entities).
        let relationshipMatch = RenamingMatch(targetRelationships, among: sourceRelationships) { from, relationship in
            entityMap[from.destinationEntity].map(Set(destination.hierarchy(below: relationship.destinationEntity).map(\.name)).contains) ?? false
        }
        for (index, relationship) in targetRelationships.enumerated() {
            if let from = relationshipMatch.source(of: index, in: sourceRelationships) {
                mapping.relationships.append(RelationshipMapping(destination: relationship.name, source: from.name))
            }
        }
        return mapping
    }

    /// Where the records of each source entity go under `mapping`: its entity mappings', else the
    /// destination entity that matches it (see the type's rules; abstract ones included, as
    /// relationships name them).
    static func entityMap(of mapping: MappingModel, source: ManagedObjectModel, destination: ManagedObjectModel) -> [String: String] {
        var map: [String: String] = [:]
        let match = RenamingMatch(destination.entities, among: source.entities)
        for (index, target) in destination.entities.enumerated() {
            if let origin = match.source(of: index, in: source.entities) { map[origin.name] = target.name }
        }
        for entity in mapping.entities { map[entity.source] = entity.destination }
        return map
    }
}

/// Name similarity for rename suggestions: equal ignoring case, one containing the other, or
/// within two edits.
enum Naming {
    static func isSimilar(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars), y = Array(b.lowercased().unicodeScalars)
        if x == y || (x.count >= 4 && y.count >= 4 && (a.lowercased().contains(b.lowercased()) || b.lowercased().contains(a.lowercased()))) {
            return true
        }
        guard abs(x.count - y.count) <= 2, min(x.count, y.count) >= 4 else { return false }
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + [Int](repeating: 0, count: y.count)
            for j in 1...max(y.count, 1) where j <= y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[y.count] <= 2
    }
}
