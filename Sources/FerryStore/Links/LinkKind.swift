import FerryModel

/// One kind of staged link: a relationship of an entity, with destinations found by source key
/// or by one destination attribute. Staged links carry their kind's `id`.
public struct LinkKind: Sendable {
    public let id: Int
    /// The entity whose records carry the links (the relationship is declared or inherited there).
    public let entity: String
    public let relationship: Relationship
    /// The destination attribute that finds destinations, or nil for source keys.
    public let matchAttribute: Attribute?

    public init(id: Int, entity: String, relationship: Relationship, matchAttribute: Attribute?) {
        self.id = id
        self.entity = entity
        self.relationship = relationship
        self.matchAttribute = matchAttribute
    }
}
