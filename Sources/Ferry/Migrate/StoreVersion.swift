import FerryModel

/// Finds the model version of a store from the version hashes in its metadata.
enum StoreVersion {
    /// The latest version in which every entity of the store has the store's hash (a store of
    /// a legacy model matches the version that holds its entities unchanged), and the model to
    /// read it with: that version narrowed to the store's entities, numbered as the store is.
    static func match(_ hashes: [String: [UInt8]], in versions: [ManagedObjectModel], source: String)
        throws(MigrateError) -> (index: Int, model: ManagedObjectModel)
    {
        var closest: (differing: [String], index: Int)?
        for (index, version) in versions.enumerated().reversed() {
            let computed = VersionHasher.hashes(of: version).entityHashes
            let differing = hashes.keys.filter { computed[$0] != hashes[$0] }.sorted()
            if differing.isEmpty {
                let names = Set(hashes.keys)
                let entities = version.entities.filter { names.contains($0.name) }
                return (index, ManagedObjectModel(name: version.name, versionIdentifier: version.versionIdentifier, entities: entities))
            }
            if closest == nil || differing.count < closest?.differing.count ?? .max { closest = (differing, index) }
        }
        throw .noMatchingVersion(source: source, differing: closest?.differing ?? hashes.keys.sorted())
    }
}
