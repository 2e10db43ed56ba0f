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
        guard let (entity, relationship) = Self.split(name) else { return nil }
        return layout.placement(of: relationship, of: entity)
    }

    /// `Entity.property`, as delete plans name relationships, split at its first dot.
    static func split(_ name: String) -> (entity: String, property: String)? {
        guard let dot = name.firstIndex(of: ".") else { return nil }
        return (String(name[..<dot]), String(name[name.index(after: dot)...]))
    }
}

extension ForeignKeyPlacement {
    /// `key = NULL[, entity = NULL][, order = NULL]`.
    var clearing: String {
        ([key] + [entityNumber, orderKey].compactMap { $0 }).map { "\($0) = NULL" }.joined(separator: ", ")
    }
}

extension JoinTablePlacement {
    /// The rows that name the object bound to `?1` from this side: as their source, and for a
    /// relationship that is its own inverse also as their destination (the same pair seen from
    /// the other object), so a deleted object leaves no row behind in either column.
    var rowsNamingObject: String {
        isOwnInverse ? "(\(source) = ?1 OR \(destination) = ?1)" : "\(source) = ?1"
    }

    /// The `Z_PK`s of the destinations of the object bound to `?1`, from both columns when the
    /// relationship is its own inverse.
    var destinationKeys: String {
        let own = "SELECT \(destination) AS Z_PK FROM \(table) WHERE \(source) = ?1"
        return isOwnInverse ? own + " UNION SELECT \(source) FROM \(table) WHERE \(destination) = ?1 ORDER BY 1" : own + " ORDER BY 1"
    }
}
