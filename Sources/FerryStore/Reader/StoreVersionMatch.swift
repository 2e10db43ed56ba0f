import FerryModel

/// Which version of a model a store (or a backup of one) belongs to, by the version hashes it
/// records: the one rule every verb uses.
///
/// A version matches when it has every entity the hashes name, each with that very hash. Among
/// matching versions the newest wins (versions that differ only in entities the store does not
/// have hold its records alike, and the newest leaves the fewest steps to migrate). The model to
/// read with is the version narrowed to the store's entities: a store of a legacy model with
/// fewer entities (a lone `Upload.sqlite`) matches the version that holds them unchanged. Hashes
/// that name no entity match nothing: an empty set would match every version vacuously.
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

    /// The newest version of `versions` (oldest first) matching `hashes`.
    public static func match(_ hashes: [String: [UInt8]], in versions: [ManagedObjectModel]) -> Result<Match, Mismatch> {
        guard !hashes.isEmpty else { return .failure(Mismatch(closest: nil, differing: [])) }
        var closest: (version: ManagedObjectModel, differing: [String])?
        for (index, version) in versions.enumerated().reversed() {
            let versionHashes = VersionHasher.hashes(of: version)
            let computed = versionHashes.entityHashes
            let differing = hashes.keys.filter { computed[$0] != hashes[$0] }.sorted()
            if differing.isEmpty {
                let names = Set(hashes.keys)
                let model = ManagedObjectModel(name: version.name, versionIdentifier: version.versionIdentifier,
                                               entities: version.entities.filter { names.contains($0.name) },
                                               configurations: version.configurations, fetchRequests: version.fetchRequests,
                                               userInfo: version.userInfo)
                return .success(Match(index: index, version: version, model: names.count == version.entities.count ? version : model))
            }
            let all = versionHashes.differingEntities(from: hashes)
            if all.count < closest?.differing.count ?? .max { closest = (version, all) }
        }
        return .failure(Mismatch(closest: closest?.version, differing: closest?.differing ?? hashes.keys.sorted()))
    }
}
