/// Finds what of a model the XML cannot hold (see `XcodeModelWriter`): everything else is written
/// and reads back equal.
enum UnwrittenModelParts {
    static func of(_ model: ManagedObjectModel) -> [UnwrittenModelPart] {
        var parts: [UnwrittenModelPart] = []
        for entity in model.entities.sorted(by: { EntityNameOrder.precedes($0.name, $1.name) }) {
            for attribute in entity.attributes {
                parts += of(attribute).map { UnwrittenModelPart(location: "\(entity.name).\(attribute.name)", detail: $0.detail, changesVersionHash: $0.hashed) }
            }
            for relationship in entity.relationships {
                parts += of(relationship).map { UnwrittenModelPart(location: "\(entity.name).\(relationship.name)", detail: $0.detail, changesVersionHash: $0.hashed) }
            }
        }
        for request in model.fetchRequests where request.entity.isEmpty {
            parts.append(UnwrittenModelPart(location: "fetch request \(request.name)",
                                            detail: "the request names no entity, which the XML requires", changesVersionHash: false))
        }
        return parts
    }

    private static func of(_ attribute: Attribute) -> [(detail: String, hashed: Bool)] {
        var parts: [(detail: String, hashed: Bool)] = []
        if attribute.isReadOnly && !attribute.isDerived {
            parts.append(("read-only: the XML makes only derived attributes read-only", true))
        }
        if attribute.isDerived && !attribute.isReadOnly {
            parts.append(("not read-only: the XML makes every derived attribute read-only", false))
        }
        if let filter = attribute.filteringPredicate {
            parts.append(("the derivation's filtering predicate '\(filter)' has no XML spelling", true))
        }
        if let rules = validationRules(ValidationRuleBounds(attribute).unspelled) { parts.append((rules, false)) }
        return parts
    }

    private static func of(_ relationship: Relationship) -> [(detail: String, hashed: Bool)] {
        var parts: [(detail: String, hashed: Bool)] = []
        if !relationship.isToMany && relationship.maxCount != 1 {
            parts.append(("a to-one with maxCount \(relationship.maxCount): the XML gives every to-one maxCount 1", true))
        }
        if let rules = validationRules(relationship.validationRules) { parts.append((rules, false)) }
        return parts
    }

    /// Validation predicates with their warnings: Xcode's editor spells bounds (`ValidationRuleBounds`)
    /// and a regular expression only, not predicates.
    private static func validationRules(_ rules: [ValidationRule]) -> String? {
        guard !rules.isEmpty else { return nil }
        let predicates = rules.map { "'\($0.predicate)'" }.joined(separator: ", ")
        return "\(rules.count) validation rule\(rules.count == 1 ? "" : "s") (\(predicates)) with no XML spelling"
    }
}
