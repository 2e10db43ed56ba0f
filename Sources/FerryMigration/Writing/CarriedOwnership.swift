import FerryModel

/// Which of a record's carried records hang from which of its relationships, and which it owns:
/// those reached from it through relationships whose delete rule is Cascade only. Core Data
/// resolves a uniqueness conflict by deleting the copy it does not keep, and a delete takes what
/// the copy's Cascade relationships hold along; objects held by Nullify relationships stay. A
/// carried record that no key link of the record or of its carried records names (one a mapping
/// made and found by its values) hangs from none.
struct CarriedOwnership {
    /// Per carried record (in the order given): the carrier's relationship it hangs from (nil:
    /// none), and whether the carrier owns it.
    let places: [(relationship: String?, owned: Bool)]

    /// - Parameters:
    ///   - carried: the records `record` carries, flattened (`EmbeddedRecord.flattened`), each
    ///     linked by key from the record or from another of them.
    init(of record: Record, entity: String, carried: [EmbeddedRecord], model: ManagedObjectModel) {
        var index: [RecordKey: Int] = [:]
        for (position, item) in carried.enumerated() {
            if let key = item.record.key { index[key] = position }
        }
        var places = [(relationship: String?, owned: Bool)](repeating: (nil, false), count: carried.count)
        var seen = Set<Int>()
        // Breadth first from the carrier: each carried record takes the first place found.
        var frontier: [(links: [RecordLink], entity: String, top: String?, owned: Bool)] = [(record.links, entity, nil, true)]
        while !frontier.isEmpty {
            var next: [(links: [RecordLink], entity: String, top: String?, owned: Bool)] = []
            for holder in frontier {
                let relationships = model.allRelationships(of: holder.entity)
                for link in holder.links {
                    let cascades = relationships.first { $0.name == link.relationship }?.deleteRule == .cascade
                    for case .key(let key) in link.targets {
                        guard let position = index[key], seen.insert(position).inserted else { continue }
                        let place = (relationship: holder.top ?? link.relationship, owned: holder.owned && cascades)
                        places[position] = place
                        next.append((carried[position].record.links, carried[position].entity, place.relationship, place.owned))
                    }
                }
            }
            frontier = next
        }
        self.places = places
    }
}
