import FerryMigration

/// The duplicate policies and identities (`unique …`) that written mappings give the entities of
/// a migration's last version: those of every step, as the records of every way
/// (`MigrationChain.chains`) go into the one store, which merges an entity's duplicates by one
/// rule whichever way they came. A rule one step gives holds for the records of the others too;
/// two steps that give one entity different rules are refused.
///
/// A step before the last version gives its rule to the entity its destination's records become
/// there, its identity named as the later steps carry those attributes: duplicates are merged
/// only where records are written (the rule of `V1 to V2.mapping` on a way `V1 → V2 → V3` was
/// dropped without a word, its duplicates all written). An identity attribute no later step
/// carries as it is cannot be compared there, and is refused.
struct DuplicateRules {
    /// Entity of the last version → what merges its duplicates.
    private(set) var policies: [String: DuplicatePolicy] = [:]
    /// Entity of the last version → the attributes that identify its records.
    private(set) var identities: [String: [String]] = [:]

    /// - Parameter mappingFile: the written mapping file of a step, by its two versions.
    init(chain: MigrationChain, mappingFile: (String, String) -> String) throws(MigrateError) {
        var ruledBy: [String: String] = [:]
        for (index, step) in chain.steps.enumerated() {
            let file = mappingFile(step.sourceVersion, step.destinationVersion)
            var stepPolicies: [String: DuplicatePolicy] = [:]
            var stepIdentities: [String: [String]] = [:]
            for mapping in step.entities where mapping.duplicates != nil || mapping.identity != nil {
                guard let carried = try Self.carried(mapping, from: chain.destinations[index], of: chain, file: file) else { continue }
                if let policy = mapping.duplicates { stepPolicies[carried.entity] = policy }
                if let identity = carried.identity { stepIdentities[carried.entity] = identity }
            }
            for entity in Set(stepPolicies.keys).union(stepIdentities.keys).sorted() {
                if let earlier = ruledBy[entity], policies[entity] != stepPolicies[entity] || identities[entity] != stepIdentities[entity] {
                    throw .duplicateRulesDisagree(entity: entity, files: [earlier, file],
                                                  rules: [Self.text(policies[entity], identities[entity]),
                                                          Self.text(stepPolicies[entity], stepIdentities[entity])])
                }
                ruledBy[entity] = file
                policies[entity] = stepPolicies[entity]
                identities[entity] = stepIdentities[entity]
            }
        }
    }

    /// The entity of the last version that the records `mapping` makes (in version `version`)
    /// become, and its identity by the names the last version gives those attributes; nil when
    /// a later step drops the records (nothing of them is written to merge).
    private static func carried(_ mapping: EntityMapping, from version: Int, of chain: MigrationChain,
                                file: String) throws(MigrateError) -> (entity: String, identity: [String]?)? {
        let route = chain.route(entity: mapping.destination, from: version)
        guard let final = route.finalEntity else { return nil }
        guard var names = mapping.identity else { return (final, nil) }
        for (step, later) in route.mappings.enumerated() {
            for (position, name) in names.enumerated() {
                guard let kept = later.attributes.first(where: { if case .copy(name) = $0.rule { true } else { false } }) else {
                    throw .duplicateRuleNotCarried(path: file, entity: mapping.destination, attribute: name,
                                                   version: chain.versions[route.stops[step + 1]].name, target: chain.last.name)
                }
                names[position] = kept.destination
            }
        }
        return (final, names)
    }

    /// A rule as a written mapping gives it: `unique uploadID keep first`.
    private static func text(_ policy: DuplicatePolicy?, _ identity: [String]?) -> String {
        (["unique"] + (identity.map { [$0.joined(separator: ", ")] } ?? []) + (policy.map { [$0.writtenForm] } ?? [])).joined(separator: " ")
    }
}
