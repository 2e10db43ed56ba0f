import FerryModel

/// Which version of a model a store (or a backup of one) belongs to, by the version hashes it
/// records: the one rule every verb uses.
///
/// A version whose entities (or the entities of one of its configurations) are exactly those the
/// hashes name, each with that very hash, is the store's own, as Core Data finds it: the newest such version wins (versions with identical
/// hashes hold the store alike, and Core Data opens it with the current one without migrating).
/// Only when no version matches exactly does a version that has every entity the hashes name, with
/// that hash, and more, match: the newest of those (it leaves the fewest steps to migrate). The
/// model to read with is the version narrowed to the store's entities: a store of a legacy model
/// with fewer entities (a lone `Upload.sqlite`) matches the version that holds them unchanged.
/// An exact match always beats a larger version: a store of version 1 is never read as version 2
/// because version 2 added an entity and changed nothing else, which would skip the mappings
/// written for the step from 1 to 2. Hashes that name no entity match nothing: an empty set would
/// match every version vacuously.
public enum StoreVersionMatch {
    /// A matching version.
    public struct Match: Sendable {
        /// Its position in the versions, oldest first.
        public let index: Int
        /// The version as the bundle has it.
        public let version: ManagedObjectModel
        /// The version narrowed to the entities the hashes name, numbered as such a store is.
        public let model: ManagedObjectModel
    }

    /// Why no version matches: the closest one (fewest differing entities) and what differs.
    public struct Mismatch: Error, Sendable {
        public let closest: ManagedObjectModel?
        /// Entities whose hashes differ from the closest version's, or that only one side has.
        public let differing: [String]
    }

    /// The version of `versions` (oldest first) matching `hashes`: the newest exact match, else
    /// the newest version holding every entity of the hashes.
    public static func match(_ hashes: [String: [UInt8]], in versions: [ManagedObjectModel]) -> Result<Match, Mismatch> {
        guard !hashes.isEmpty else { return .failure(Mismatch(closest: nil, differing: [])) }
        var closest: (version: ManagedObjectModel, differing: [String])?
        var larger: Match?
        for (index, version) in versions.enumerated().reversed() {
            let versionHashes = VersionHasher.hashes(of: version)
            let computed = versionHashes.entityHashes
            let differing = hashes.keys.filter { computed[$0] != hashes[$0] }.sorted()
            if differing.isEmpty {
                let names = Set(hashes.keys)
                if names.count == version.entities.count { return .success(Match(index: index, version: version, model: version)) }
                // A store made with one of the version's configurations holds exactly its entities.
                let isConfiguration = version.configurations.contains { Set($0.entityNames) == names }
                guard isConfiguration || larger == nil else { continue }
                let model = ManagedObjectModel(name: version.name, versionIdentifier: version.versionIdentifier,
                                               entities: version.entities.filter { names.contains($0.name) },
                                               configurations: version.configurations, fetchRequests: version.fetchRequests,
                                               userInfo: version.userInfo)
                if isConfiguration { return .success(Match(index: index, version: version, model: model)) }
                larger = Match(index: index, version: version, model: model)
                continue
            }
            let all = versionHashes.differingEntities(from: hashes)
            if all.count < closest?.differing.count ?? .max { closest = (version, all) }
        }
        if let larger { return .success(larger) }
        return .failure(Mismatch(closest: closest?.version, differing: closest?.differing ?? hashes.keys.sorted()))
    }
}
