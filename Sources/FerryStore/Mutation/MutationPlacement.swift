import FerryModel

extension MutableStore {
    /// Where the pairs of `relationship`, declared by `owner`, are kept.
    func placement(of relationship: Relationship, owner: String) throws(StoreMutationError) -> RelationshipPlacement {
        guard let placement = layout.placement(of: relationship.name, of: owner) else {
            throw .unsupported("\(owner).\(relationship.name) has no column or join table in the store")
        }
        return placement
    }

    /// Where the pairs of a relationship named `Entity.relationship` (as delete plans name them)
    /// are kept.
    func placement(named name: String) -> RelationshipPlacement? {
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return layout.placement(of: String(name[name.index(after: dot)...]), of: String(name[..<dot]))
    }
}

extension ForeignKeyPlacement {
    /// `key = NULL[, entity = NULL][, order = NULL]`.
    var clearing: String {
        ([key] + [entityNumber, orderKey].compactMap { $0 }).map { "\($0) = NULL" }.joined(separator: ", ")
    }
}
