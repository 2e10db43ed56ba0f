/// The to-one pairs of a store's rows that the last version of the chain cannot hold
/// (`MigrationChain.unheldPairs`: the relationship becomes none, or its destination record
/// becomes an entity what it becomes does not lead to, as when a sub-entity moves under another
/// parent), counted per entity and relationship as the rows are read: their links are not handed
/// on (one would find no record of the destination it names), and each is said with its count,
/// dropped on purpose as Core Data drops them.
struct UnheldPairs {
    private let chain: MigrationChain
    private let version: Int
    /// Why each relationship of an entity cannot hold pairs to records of a destination entity;
    /// nil when it can.
    private var reasons: [Ends: String?] = [:]
    private var counts: [Ends: Int64] = [:]

    private struct Ends: Hashable {
        let entity: String
        let relationship: String
        let destination: String
    }

    init(chain: MigrationChain, version: Int) {
        self.chain = chain
        self.version = version
    }

    /// Whether the pair of `relationship` of a row of `entity` leading to a row of `destination`
    /// is dropped; counted when it is.
    mutating func drops(_ relationship: String, of entity: String, to destination: String) -> Bool {
        let ends = Ends(entity: entity, relationship: relationship, destination: destination)
        if reasons[ends] == nil { reasons[ends] = .some(chain.unheldPairs(relationship, of: entity, to: destination, from: version)) }
        guard case .some(.some) = reasons[ends] else { return false }
        counts[ends, default: 0] += 1
        return true
    }

    /// One warning per entity, relationship and reason, with the pairs counted.
    func notes(source: String) -> [SourceNote] {
        var merged: [[String]: Int64] = [:]
        for (ends, count) in counts {
            guard case let .some(.some(reason)) = reasons[ends] else { continue }
            merged[[ends.entity, ends.relationship, reason], default: 0] += count
        }
        return merged.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { key, count in
            SourceNote.droppedPairs(source: source, count: count, entity: key[0], relationship: key[1], reason: key[2])
        }
    }
}
