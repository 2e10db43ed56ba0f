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
    /// Whether the links were read in a version where the relationship's inverse, a to-one in
    /// the version written, was a to-many or none (`Owner.pets` become `Owner.pet`, read from
    /// `Pet.owner`'s column): several of them may name one destination, which that to-one cannot
    /// hold. Such a destination is no claim by several but a list the version change cannot keep,
    /// and its resolution refuses it (`LinkResolution.NarrowedSides`).
    public let inverseWasToMany: Bool

    public init(id: Int, entity: String, relationship: Relationship, matchAttribute: Attribute?, mirrorsOneToOne: Bool = true,
                inverseWasToMany: Bool = false) {
        self.id = id
        self.entity = entity
        self.relationship = relationship
        self.matchAttribute = matchAttribute
        self.mirrorsOneToOne = mirrorsOneToOne
        self.inverseWasToMany = inverseWasToMany
    }
}
