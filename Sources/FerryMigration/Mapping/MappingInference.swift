import FerryModel

/// Infers the mapping between two model versions: what Core Data's lightweight migration infers,
/// and the lossless or checked type conversions of `ValueConversion`.
///
/// - Entities and properties match by renaming identifier (Xcode's `elementID`, which defaults to
///   the name): a destination matches the source whose identifier equals its own, else the source
///   named by its identifier, else the source of the same name. Chains over several versions work
///   step by step.
/// - Added attributes take their default; removed ones are dropped; optional → required uses the
///   default for nil values (a record whose required value stays nil is rejected).
/// - Relationships match the same way when their destinations map onto each other (or onto an
///   entity below the destination: records of an entity that becomes abstract are written as one
///   of its sub-entities); to-one → to-many and ordering changes carry the links.
/// - Rename candidates (identical definitions, similar names) are only suggested, never applied.
public enum MappingInference {
    public static func infer(from source: ManagedObjectModel, to destination: ManagedObjectModel) -> MappingModel {
        var mapping = MappingModel(sourceVersion: source.name, destinationVersion: destination.name)
        var matchedSources = Set<String>()
        var pairs: [(Entity, Entity)] = []
        for target in destination.entities {
            guard let origin = match(target, among: source.entities, identifier: \.effectiveRenamingIdentifier, name: \.name) else {
                mapping.addedEntities.append(target.name)
                continue
            }
            // A record becomes one object: of two entities matching one source, one that names it
            // as its renaming identifier (a rename the model declares) takes its records before
            // one that matches by its own name, else the first; the other is new, unless a
            // written mapping sends the records there instead.
            if let index = pairs.firstIndex(where: { $0.0.name == origin.name }) {
                let first = pairs[index].1
                let (kept, other) = target.renamingIdentifier != nil && first.renamingIdentifier == nil ? (target, first) : (first, target)
                pairs[index].1 = kept
                mapping.addedEntities.append(other.name)
                mapping.suggestions.append("entities \(kept.name) and \(other.name) both match \(origin.name): its records become \(kept.name) objects; "
                    + "\(other.name) is new (a written mapping block `entity \(origin.name) -> \(other.name)` sends them there instead)")
                continue
            }
            pairs.append((origin, target))
            matchedSources.insert(origin.name)
        }
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
        for attribute in destination.allAttributes(of: target.name) where !attribute.isTransient && attribute.type.sqlColumnType != nil {
            guard let from = match(attribute, among: sourceAttributes, identifier: \.effectiveRenamingIdentifier, name: \.name) else {
                mapping.attributes.append(AttributeMapping(destination: attribute.name, rule: .defaultValue))
                unmatched.append(attribute)
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
        for relationship in destination.allRelationships(of: target.name) where !relationship.isTransient {
            // Its records' destinations must be objects the relationship can hold: of its
            // destination entity or one below it (records of an entity that becomes abstract are
            // written as one of its sub-entities).
            let holdable = Set(destination.hierarchy(below: relationship.destinationEntity).map(\.name))
            let candidates = sourceRelationships.filter { entityMap[$0.destinationEntity].map(holdable.contains) ?? false }
            if let from = match(relationship, among: candidates, identifier: \.effectiveRenamingIdentifier, name: \.name) {
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
        for target in destination.entities {
            guard let origin = match(target, among: source.entities, identifier: \.effectiveRenamingIdentifier, name: \.name),
                  map[origin.name] == nil else { continue }
            map[origin.name] = target.name
        }
        for entity in mapping.entities { map[entity.source] = entity.destination }
        return map
    }

    /// The element of `candidates` a destination element matches (see the type's rules).
    static func match<Element>(_ target: Element, among candidates: [Element], identifier: KeyPath<Element, String>,
                               name: KeyPath<Element, String>) -> Element? {
        candidates.first { $0[keyPath: identifier] == target[keyPath: identifier] }
            ?? candidates.first { $0[keyPath: name] == target[keyPath: identifier] }
            ?? candidates.first { $0[keyPath: name] == target[keyPath: name] }
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
