import FerryMigration

/// Why a mapping a migration found is read by no step of its chain, so that none is skipped in
/// silence: each is named in a warning with the reason.
///
/// A mapping that spans versions (`V1 to V3.mapping`) is the one step of the records of its first
/// version, also when another source of the run is of a version it spans (that source's records
/// take their own way): it goes unread only where no records are of its first version, or they
/// cross it or take a longer mapping.
struct UnreadMappings {
    let model: String
    /// The bundle's versions, in order.
    let versions: [String]
    /// The chain the run takes.
    let chain: MigrationChain
    /// The mappings each step reads: `read[i]` those of `chain.steps[i]`.
    let read: [[String]]

    /// A warning for each of `unread` (the mappings found that no step reads), once per file.
    func warnings(_ unread: [FoundMapping]) -> [String] {
        var named = Set<String>()
        return unread.filter { named.insert($0.path).inserted }.map { "\($0.path) \(explanation(of: $0))" }
    }

    /// A warning for each mapping model (beside the model) whose entity version hashes are those
    /// of no two of its versions.
    func warnings(unmatched: [String]) -> [String] {
        unmatched.map { "\($0) maps no two versions of \(model) (\(versions.joined(separator: ", "))) by their entity version hashes: no step runs it" }
    }

    /// Why no step reads `mapping`: "maps V1 → V2: no step reads it, as …".
    func explanation(of mapping: FoundMapping) -> String {
        "maps \(versions[mapping.from]) → \(versions[mapping.to]): no step reads it, as \(reason(mapping))"
    }

    private func reason(_ mapping: FoundMapping) -> String {
        let from = versions[mapping.from]
        guard mapping.from < mapping.to else { return "it goes back to an earlier version (a bundle's versions are in their names' order)" }
        let stops = chain.versions.compactMap { versions.firstIndex(of: $0.name) }
        guard let target = stops.last, mapping.to <= target else { return "it ends after the target \(chain.last.name)" }
        let steps = chain.steps.indices
        if let at = steps.first(where: { stops[$0] == mapping.from }) {
            return "records of \(from) go to \(chain.versions[chain.destinations[at]].name) by \(describe(read[at]))"
        }
        guard let step = steps.first(where: { stops[$0] < mapping.from && mapping.from < stops[chain.destinations[$0]] }) else {
            return "no source is of \(from) or an earlier version"
        }
        return "records cross \(from) in the step \(chain.versions[step].name) → \(chain.versions[chain.destinations[step]].name) (\(describe(read[step])))"
    }

    private func describe(_ mappings: [String]) -> String {
        mappings.isEmpty ? "the inferred mapping" : mappings.map { "'\($0)'" }.joined(separator: " and ")
    }
}
