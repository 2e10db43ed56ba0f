/// Why a mapping a migration found is read by no step of its chain, so that none is skipped in
/// silence: each is named in a warning with the reason, or the run is refused.
///
/// A mapping that spans versions (`V1 to V3.mapping`) is the one step of the records of its first
/// version. The chain crosses it in one step unless a source is of a version it spans: the one
/// chain then cannot take the first version's records across that version and start the
/// source's records there, and is refused, naming the mapping and the source, rather than carry
/// the first version's records without the mapping's rules.
struct UnreadMappings {
    let model: String
    /// The bundle's versions, in order.
    let versions: [String]
    /// The chain's stops; the last is the target.
    let chain: [String]
    /// The mappings each step reads: `read[i]` those of `chain[i]` → `chain[i + 1]`.
    let read: [[String]]
    /// The versions of the run's sources, each with its sources.
    let sourceVersions: [String: [String]]

    /// A warning for each of `unread` (the mappings found that no step reads), once per file.
    /// - Throws: `MigrateError.mappingSpansSource` for a mapping whose first version the chain
    ///   stops at while a source is of a version it spans.
    func warnings(_ unread: [FoundMapping]) throws(MigrateError) -> [String] {
        var lines: [String] = []
        var named = Set<String>()
        for mapping in unread {
            try refuseSpanningSource(mapping)
        }
        for mapping in unread where named.insert(mapping.path).inserted {
            lines.append("\(mapping.path) \(explanation(of: mapping))")
        }
        return lines
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

    private func refuseSpanningSource(_ mapping: FoundMapping) throws(MigrateError) {
        guard mapping.from < mapping.to, let at = chain.firstIndex(of: versions[mapping.from]), at < chain.count - 1,
              let target = versions.firstIndex(of: chain[chain.count - 1]), mapping.to <= target else { return }
        for between in versions[(mapping.from + 1)..<mapping.to] {
            guard let sources = sourceVersions[between] else { continue }
            throw .mappingSpansSource(path: mapping.path, from: versions[mapping.from], to: versions[mapping.to], version: between, sources: sources)
        }
    }

    private func reason(_ mapping: FoundMapping) -> String {
        let (from, to) = (versions[mapping.from], versions[mapping.to])
        guard mapping.from < mapping.to else { return "it goes back to an earlier version (a bundle's versions are in their names' order)" }
        let stops = chain.compactMap { versions.firstIndex(of: $0) }
        guard let target = stops.last, mapping.to <= target else { return "it ends after the target \(chain[chain.count - 1])" }
        if let at = chain.firstIndex(of: from), at < chain.count - 1 {
            return "records of \(from) go to \(chain[at + 1]) by \(describe(read[at]))"
        }
        guard let first = stops.first, mapping.from > first else { return "no source is of \(from) or an earlier version" }
        guard let step = stops.indices.dropLast().first(where: { stops[$0] < mapping.from && mapping.from < stops[$0 + 1] }) else {
            return "the chain \(chain.joined(separator: " → ")) does not stop at \(from) or \(to)"
        }
        return "records cross \(from) in the step \(chain[step]) → \(chain[step + 1]) (\(describe(read[step])))"
    }

    private func describe(_ mappings: [String]) -> String {
        mappings.isEmpty ? "the inferred mapping" : mappings.map { "'\($0)'" }.joined(separator: " and ")
    }
}
