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
    /// gives its own order of the same pairs (`LinkResolution` keeps each side's order). A
    /// required to-one whose inverse is an unordered to-many is linked from its own side instead:
    /// a record whose key names no record (dangling in the backed-up store) is then rejected, as
    /// Core Data could not save it, where linked from the lists it was written without one and
    /// failed the restore's check (exit 5).
    static func restoresLinks(_ relationship: Relationship, of entity: String, model: ManagedObjectModel) -> Bool {
        guard !relationship.isTransient else { return false }
        if let inverse = model.inverse(of: relationship), let required = Self.requiredToOne(relationship, inverse) ?? Self.requiredToOne(inverse, relationship) {
            return required == relationship
        }
        return carriesLinks(relationship, of: entity, model: model) || model.isOrderedOnBothSides(relationship)
    }

    /// `toOne` when it is a required to-one whose inverse `toMany` is an unordered to-many.
    private static func requiredToOne(_ toOne: Relationship, _ toMany: Relationship) -> Relationship? {
        !toOne.isToMany && !toOne.isOptional && toMany.isToMany && !toMany.isOrdered ? toOne : nil
    }
}
