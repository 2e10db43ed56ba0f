import FerryMigration

/// The duplicate policies and identities (`unique …`) that written mappings give the entities of
/// a migration's last version: those of every step into it, as the records of every way
/// (`MigrationChain.chains`) go into the one store, which merges an entity's duplicates by one
/// rule whichever way they came. A rule one step gives holds for the records of the others too;
/// two steps that give one entity different rules are refused.
struct DuplicateRules {
    /// Entity of the last version → what merges its duplicates.
    private(set) var policies: [String: DuplicatePolicy] = [:]
    /// Entity of the last version → the attributes that identify its records.
    private(set) var identities: [String: [String]] = [:]

    /// - Parameter mappingFile: the written mapping file of a step, by its two versions.
    init(chain: MigrationChain, mappingFile: (String, String) -> String) throws(MigrateError) {
        var ruledBy: [String: String] = [:]
        for (index, step) in chain.steps.enumerated() where chain.destinations[index] == chain.versions.count - 1 {
            var stepPolicies: [String: DuplicatePolicy] = [:]
            var stepIdentities: [String: [String]] = [:]
            for mapping in step.entities {
                if let policy = mapping.duplicates { stepPolicies[mapping.destination] = policy }
                if let identity = mapping.identity { stepIdentities[mapping.destination] = identity }
            }
            let file = mappingFile(step.sourceVersion, step.destinationVersion)
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

    /// A rule as a written mapping gives it: `unique uploadID keep-first`.
    private static func text(_ policy: DuplicatePolicy?, _ identity: [String]?) -> String {
        (["unique"] + (identity.map { [$0.joined(separator: ", ")] } ?? []) + (policy.map { [$0.rawValue] } ?? [])).joined(separator: " ")
    }
}
