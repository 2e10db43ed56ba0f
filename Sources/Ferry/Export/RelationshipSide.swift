import FerryModel

/// Which side of a relationship and its inverse carries their pairs when records are rebuilt
/// from an export or backup folder (`ferry restore`) and, in PostgreSQL, which side a join table
/// is named after: one side only, so no pair is written twice.
enum RelationshipSide {
    /// Whether `relationship` (of `entity`, declared by it or an ancestor) is that side: its own
    /// when it has no inverse, the to-many side of a one-to-many, the ordered side of an ordered
    /// many-to-many, otherwise the side whose `Entity.relationship` sorts first.
    static func carriesLinks(_ relationship: Relationship, of entity: String, model: ManagedObjectModel) -> Bool {
        guard !relationship.isTransient else { return false }
        guard let inverse = model.inverse(of: relationship) else { return true }
        if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        let owner = model.declaringEntity(ofProperty: relationship.name, in: entity)?.name ?? entity
        let inverseOwner = model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity)?.name
            ?? relationship.destinationEntity
        return (owner, relationship.name) <= (inverseOwner, inverse.name)
    }
}
