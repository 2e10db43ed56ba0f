/// Objects that a to-one of the version written would hold several destinations of, where the
/// version the pairs were read in let them have several (a to-many the version change made a
/// to-one, `LinkKind.inverseWasToMany`): no rule can choose one, so link resolution refuses them
/// (`LinkResolutionError.severalForToOne`) instead of keeping the last claim.
public struct NarrowedToOneClaims: Sendable, Equatable {
    /// The entity of the objects, and the to-one they are given several destinations of.
    public let entity: String
    public let relationship: String
    /// The to-one's inverse, whose pairs give them several: its entity and name.
    public let inverseEntity: String
    public let inverse: String
    /// How many objects are given several.
    public let objects: Int
    /// Where the first such object's links were given: the records that name it through the
    /// inverse (the first two), or, when `originsAreObject`, the object's own record.
    public let origins: [LinkOrigin]
    public let originsAreObject: Bool

    public init(entity: String, relationship: String, inverseEntity: String, inverse: String, objects: Int, origins: [LinkOrigin],
                originsAreObject: Bool) {
        self.entity = entity
        self.relationship = relationship
        self.inverseEntity = inverseEntity
        self.inverse = inverse
        self.objects = objects
        self.origins = origins
        self.originsAreObject = originsAreObject
    }
}
