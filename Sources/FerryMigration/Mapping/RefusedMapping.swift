/// An entity mapping of a Core Data mapping model that Ferry cannot run: one with a custom
/// migration policy class (app code), or one whose expressions go beyond what `DeclarativeMapping`
/// translates. Records of its source entity that reach the step stop the migration with `error`,
/// which says what to do instead: a written mapping block for the source entity (`entity SOURCE`
/// in the step's mapping file) replaces the entity mapping, and lifts the refusal.
public struct RefusedMapping: Sendable, Equatable {
    /// The source entity whose records cannot cross the step.
    public var source: String
    /// The entity mapping's name.
    public var entityMapping: String
    /// The custom `NSEntityMigrationPolicy` subclass, when that is why.
    public var policyClass: String?
    public var error: MappingError

    public init(source: String, entityMapping: String, policyClass: String? = nil, error: MappingError) {
        self.source = source
        self.entityMapping = entityMapping
        self.policyClass = policyClass
        self.error = error
    }
}
