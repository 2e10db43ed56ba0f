/// A Core Data mapping model (`NSMappingModel`) as Apple's mapping compiler makes it: from an
/// Xcode `.xcmappingmodel` (whose `xcmapping.xml` stores less, see `MappingModelCompiler`) or
/// read back from a compiled `.cdm` (coredata-format.md §10).
public struct CoreDataMappingModel: Sendable, Equatable {
    /// Where the model was read from, for messages.
    public var path: String
    /// Entity mappings in the order Core Data runs them.
    public var entityMappings: [CoreDataEntityMapping]

    public init(path: String, entityMappings: [CoreDataEntityMapping]) {
        self.path = path
        self.entityMappings = entityMappings
    }

    /// The entity mapping with this name (`NSEntityMappingsByName`).
    public func entityMapping(named name: String) -> CoreDataEntityMapping? {
        entityMappings.first { $0.name == name }
    }

    /// Source entity name → version hash, over every mapping with a source: what a source model
    /// version must hold for Core Data to choose this mapping model.
    public var sourceEntityVersionHashes: [String: [UInt8]] {
        hashes(entityMappings.map { ($0.sourceEntityName, $0.sourceEntityVersionHash) })
    }

    /// Destination entity name → version hash, over every mapping with a destination.
    public var destinationEntityVersionHashes: [String: [UInt8]] {
        hashes(entityMappings.map { ($0.destinationEntityName, $0.destinationEntityVersionHash) })
    }

    /// Whether Core Data would choose this model to migrate from the version with `source` hashes
    /// to the one with `destination` hashes: both hash sets are subsets of the versions' (the
    /// same entity names with the same hashes).
    public func maps(from source: [String: [UInt8]], to destination: [String: [UInt8]]) -> Bool {
        sourceEntityVersionHashes.allSatisfy { source[$0.key] == $0.value }
            && destinationEntityVersionHashes.allSatisfy { destination[$0.key] == $0.value }
    }

    private func hashes(_ pairs: [(String?, [UInt8]?)]) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for case let (name?, hash?) in pairs { result[name] = hash }
        return result
    }
}
