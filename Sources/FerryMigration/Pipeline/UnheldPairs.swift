/// The pairs a source holds that the last version of the chain cannot hold
/// (`MigrationChain.unheldPairs`: the relationship becomes none, or its destination record
/// becomes an entity what it becomes does not lead to, as when a sub-entity moves under another
/// parent), counted per entity and relationship as they are read: their links are not handed on
/// (one would find no record of the destination it names), and each is said with its count,
/// dropped on purpose as Core Data drops them. Every source kind asks here: a store of its rows'
/// to-ones and of the pairs it keeps apart (join tables, ordered lists), whose two ends' entities
/// it knows; a file of its records' links, whose destinations are found later, by key or value.
struct UnheldPairs {
    private let chain: MigrationChain
    private let version: Int
    /// Why each relationship of an entity cannot hold pairs to records of a destination entity;
    /// nil when it can.
    private var reasons: [Ends: String?] = [:]
    private var counts: [Ends: Int64] = [:]
    /// For a relationship of an entity, the destination entity under which its links whose
    /// destination is not known are counted, when the last version holds none of its pairs; nil
    /// when it holds some (`dropsEvery`).
    private var unheldEverywhere: [Ends: Ends?] = [:]

    private struct Ends: Hashable {
        let entity: String
        let relationship: String
        let destination: String
    }

    init(chain: MigrationChain, version: Int) {
        self.chain = chain
        self.version = version
    }

    /// Whether the pair of `relationship` of a record of `entity` leading to a record of
    /// `destination` (concrete entities) is dropped; counted when it is.
    mutating func drops(_ relationship: String, of entity: String, to destination: String) -> Bool {
        let ends = Ends(entity: entity, relationship: relationship, destination: destination)
        guard reason(ends) != nil else { return false }
        counts[ends, default: 0] += 1
        return true
    }

    /// Whether some pair of `relationship` of a record of `entity`'s hierarchy leading to one of
    /// `destination`'s hierarchy may be dropped: when none can, its pairs need not be asked
    /// about one by one.
    mutating func mayDrop(_ relationship: String, below entity: String, to destination: String) -> Bool {
        let model = chain.versions[version]
        let destinations = model.hierarchy(below: destination).filter { !$0.isAbstract }
        return model.hierarchy(below: entity).contains { source in
            !source.isAbstract && destinations.contains { reason(Ends(entity: source.name, relationship: relationship, destination: $0.name)) != nil }
        }
    }

    /// Whether the `count` links of `relationship` of a record of `entity` whose destinations are
    /// not known as they are read (a file names them by key or value) are dropped: when the last
    /// version holds its pairs to none of the carried records they could name; counted when
    /// they are. A link that could find a record the last version holds is handed on.
    mutating func dropsEvery(_ count: Int, of relationship: String, of entity: String) -> Bool {
        let key = Ends(entity: entity, relationship: relationship, destination: "")
        if unheldEverywhere[key] == nil {
            let destination = chain.versions[version].allRelationships(of: entity).first { $0.name == relationship }?.destinationEntity
            let ends = destination.map { chain.carriedEntities(below: $0, from: version) }.map { names in
                names.map { Ends(entity: entity, relationship: relationship, destination: $0) }
            } ?? []
            unheldEverywhere[key] = .some(ends.allSatisfy { reason($0) != nil } ? ends.first : nil)
        }
        guard case let .some(.some(ends)) = unheldEverywhere[key] else { return false }
        counts[ends, default: 0] += Int64(count)
        return true
    }

    /// Why the last version cannot hold the pairs of `ends`, found once; nil when it can.
    private mutating func reason(_ ends: Ends) -> String? {
        if let known = reasons[ends] { return known }
        let found = chain.unheldPairs(ends.relationship, of: ends.entity, to: ends.destination, from: version)
        reasons[ends] = .some(found)
        return found
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
