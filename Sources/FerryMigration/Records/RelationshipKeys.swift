import FerryModel

/// The relationships the keys of a legacy record name (as `--map KEY=RELATIONSHIP` maps them, or
/// by exact name, then ignoring case, then by renaming identifier), and the destination attribute
/// each relationship's values match: the one `--link RELATIONSHIP=ATTRIBUTE` names, or else the
/// destination's only single-attribute uniqueness constraint. Shared by the document decoder and
/// the CSV reader.
struct RelationshipKeys: Sendable {
    private let model: ManagedObjectModel
    private let relationships: [Relationship]
    /// Source key → relationship name, for keys nothing else would match.
    private let keyMap: [String: String]
    /// Relationship name → the destination attribute its values match, as given.
    let linkAttributes: [String: String]
    private var matchAttributes: [String: Attribute] = [:]

    init(model: ManagedObjectModel, entity: String, keyMap: [String: String] = [:], linkAttributes: [String: String]) {
        self.model = model
        self.keyMap = keyMap
        relationships = model.allRelationships(of: entity).filter { !$0.isTransient }
        self.linkAttributes = linkAttributes
    }

    /// Why a record whose key or column for a required to-one holds no value is rejected (the
    /// reject names the relationship).
    static let emptyRequiredReason = emptyRequiredReason(of: nil)

    /// Why a record that gives no destination for the relationship `name` (or the one its
    /// reject names, when nil) that needs one is rejected.
    static func emptyRequiredReason(of name: String?) -> String {
        "required relationship \(name.map { "'\($0)' " } ?? "")is empty (Core Data refuses to save the object without a destination)"
    }

    /// The key of a Core Data store's row, as Ferry's exports (and dumps of a store) carry it.
    static let storeRowKey = "Z_PK"

    /// Whether a source key is a store's row key: `Z_PK` in any case (a dump of Ferry's
    /// PostgreSQL tables spells it `z_pk`), spaces around it aside.
    static func isStoreRowKey(_ key: String) -> Bool {
        key.trimmingSpaces.lowercased() == storeRowKey.lowercased()
    }

    /// Why a source whose records carry `Z_PK` and give `relationships` by value is not read:
    /// those values are the `Z_PK`s of the store the records came from (a Ferry export), not
    /// values of the destination's attribute, and would link the wrong records or create fake ones.
    static func storeKeysReason(relationships: [String]) -> String {
        "its records carry \(storeRowKey), the row key of a Core Data store, and give relationship"
            + (relationships.count == 1 ? " '\(relationships[0])'" : "s \(relationships.map { "'\($0)'" }.joined(separator: ", "))")
            + " as numbers: in a Ferry export those are the exported store's \(storeRowKey)s, not values of the destination, and would "
            + "link the wrong records or create fake ones. Rebuild the store from the export's folder with "
            + "`ferry restore FOLDER --model MODEL --out STORE`, or name the key's attribute with --map \(storeRowKey)=ATTRIBUTE"
    }

    /// Why a record that lists `targets` for a to-many with a minimum or maximum count is
    /// rejected: as many distinct destinations as it lists are outside the bounds; nil when
    /// they are within (or the relationship has none).
    static func countProblem(of relationship: Relationship, targets: [RecordLink.Target]) -> String? {
        let minimum = relationship.minCount, maximum = relationship.maxCount
        guard relationship.isToMany, minimum > 0 || maximum > 0 else { return nil }
        let count = Set(targets).count
        guard count < minimum || (maximum > 0 && count > maximum) else { return nil }
        let allowed = maximum > 0 ? "\(minimum) to \(maximum)" : "at least \(minimum)"
        return "\(count) destinations where the model allows \(allowed) (Core Data refuses to save the object)"
    }

    /// The relationship `key` names (as `PropertyKeyMatcher` matches attributes); nil when it names none.
    func relationship(forKey key: String) -> Relationship? {
        if let found = matchingRelationship(forKey: key) { return found }
        let trimmed = key.trimmingSpaces
        return trimmed != key && !trimmed.isEmpty ? matchingRelationship(forKey: trimmed) : nil
    }

    private func matchingRelationship(forKey key: String) -> Relationship? {
        if let mapped = keyMap[key] { return relationships.first { $0.name == mapped } }
        let folded = key.lowercased()
        return relationships.first { $0.name == key } ?? relationships.first { $0.name.lowercased() == folded }
            ?? relationships.first { $0.renamingIdentifier == key }
    }

    /// The destination's one attribute when `relationship`'s values make destinations rather than
    /// find them: no `--link` names an attribute to match, and the destination has that attribute
    /// only and no single-attribute uniqueness constraint (an entity of a list's values, as
    /// `ModelInference` makes for an array of values). Nothing could find one of its records by a
    /// value, so each value is one record of its own, in the list's order, repeats kept.
    func valueHolder(for relationship: Relationship) -> Attribute? {
        guard linkAttributes[relationship.name] == nil else { return nil }
        let destination = relationship.destinationEntity
        let attributes = model.allAttributes(of: destination).filter { !$0.isTransient }
        let unique = model.ancestry(of: destination).flatMap(\.uniquenessConstraints).filter { $0.count == 1 }
        guard attributes.count == 1, unique.isEmpty else { return nil }
        return attributes[0]
    }

    /// The destination attribute `relationship`'s values match, or why there is none.
    mutating func matchAttribute(for relationship: Relationship, source: String) throws(RecordSourceError) -> Attribute {
        if let known = matchAttributes[relationship.name] { return known }
        let destination = relationship.destinationEntity
        let attributes = model.allAttributes(of: destination)
        if let name = linkAttributes[relationship.name] {
            guard let attribute = attributes.first(where: { $0.name == name }) else {
                throw RecordSourceError(source: source, reason: "\(destination) has no attribute '\(name)' for relationship '\(relationship.name)'")
            }
            matchAttributes[relationship.name] = attribute
            return attribute
        }
        let unique = model.ancestry(of: destination).flatMap(\.uniquenessConstraints).filter { $0.count == 1 }.map { $0[0] }
        guard unique.count == 1, let attribute = attributes.first(where: { $0.name == unique[0] }) else {
            throw RecordSourceError(source: source, reason:
                "relationship '\(relationship.name)' lists values of \(destination): say which \(destination) attribute they match with --link \(relationship.name)=ATTRIBUTE")
        }
        matchAttributes[relationship.name] = attribute
        return attribute
    }
}
