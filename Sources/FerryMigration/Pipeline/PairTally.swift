/// The relationship pairs a migration took from one source store, by where the store keeps them
/// (`RelationshipPlacement.storageName`): read with their records or apart from them, or dropped
/// on purpose because the chain has no such relationship. Compared with the store's pair census,
/// so a relationship whose pairs no code path carries fails the run instead of vanishing.
struct PairTally {
    private(set) var taken: [String: Int64] = [:]

    /// Counts pairs taken from `storage`.
    mutating func add(_ storage: String?, _ count: Int64 = 1) {
        guard let storage else { return }
        taken[storage, default: 0] += count
    }

    /// One line per place where the store holds another number of pairs than were taken.
    func discrepancies(census: [String: Int64]) -> [String] {
        Set(census.keys).union(taken.keys).sorted().compactMap { storage in
            let held = census[storage, default: 0], read = taken[storage, default: 0]
            guard held != read else { return nil }
            return "relationship pairs in \(storage): the store holds \(held), \(read) were read"
        }
    }
}
