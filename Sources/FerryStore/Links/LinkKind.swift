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
    /// Whether a link of a one-to-one also fills its inverse's column, as Core Data keeps the two
    /// sides when one is set. False when the links come from a source that keeps each side in
    /// a column of its own and gives both (a store, a backup, a PostgreSQL schema): each side is
    /// then written from its own column only, so a one-to-one the source filled on one side
    /// (Apple Notes' `cloudState`) stays so.
    public let mirrorsOneToOne: Bool

    public init(id: Int, entity: String, relationship: Relationship, matchAttribute: Attribute?, mirrorsOneToOne: Bool = true) {
        self.id = id
        self.entity = entity
        self.relationship = relationship
        self.matchAttribute = matchAttribute
        self.mirrorsOneToOne = mirrorsOneToOne
    }
}
