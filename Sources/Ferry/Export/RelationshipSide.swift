import FerryModel

/// Which side of a relationship and its inverse carries their pairs when records are rebuilt
/// from an export or backup folder (`ferry restore`) and, in PostgreSQL, which side a join table
/// is named after: one side, so no pair is written twice, except for a one-to-one, whose two
/// sides are two columns that a store may fill apart.
enum RelationshipSide {
    /// Whether `relationship` (of `entity`, declared by it or an ancestor) is that side: its own
    /// when it has no inverse, both sides of a one-to-one (Apple Notes fills
    /// `ICCloudSyncingObject.cloudState` and leaves its inverse empty: read from one side only,
    /// its pairs would be lost; when the sides agree, each gives the same pair), the to-many side
    /// of a one-to-many, the ordered side of an ordered many-to-many, otherwise the side whose
    /// `Entity.relationship` sorts first.
    static func carriesLinks(_ relationship: Relationship, of entity: String, model: ManagedObjectModel) -> Bool {
        guard !relationship.isTransient else { return false }
        guard let inverse = model.inverse(of: relationship) else { return true }
        if !relationship.isToMany, !inverse.isToMany { return true }
        if relationship.isToMany != inverse.isToMany { return relationship.isToMany }
        return model.readsManyToManyPairs(from: relationship, of: entity, inverse: inverse)
    }

    /// Whether `restore` links `relationship` (of `entity`) from the records of a folder: the side
    /// that carries the pairs, and both sides of a many-to-many ordered on both, whose second side
    /// gives its own order of the same pairs (`LinkResolution` keeps each side's order).
    ///
    /// A required to-one whose inverse is a to-many is linked from its own side too: a record
    /// whose destination is not restored (a key dangling in the backed-up store, a destination
    /// rejected) is then rejected, as Core Data could not save it, where linked from the lists
    /// alone it was written without one and failed the restore's check (exit 5). Its inverse is
    /// linked only when ordered, for its order.
    static func restoresLinks(_ relationship: Relationship, of entity: String, model: ManagedObjectModel) -> Bool {
        guard !relationship.isTransient else { return false }
        if let inverse = model.inverse(of: relationship) {
            if isRequiredToOne(relationship, of: inverse) { return true }
            if isRequiredToOne(inverse, of: relationship) { return relationship.isOrdered }
        }
        return carriesLinks(relationship, of: entity, model: model) || model.isOrderedOnBothSides(relationship)
    }

    /// Whether `toOne` is a required to-one whose inverse `toMany` is a to-many.
    private static func isRequiredToOne(_ toOne: Relationship, of toMany: Relationship) -> Bool {
        !toOne.isToMany && !toOne.isOptional && toMany.isToMany
    }
}
