/// How Core Data makes the instances of one destination entity (`NSEntityMapping`).
public struct CoreDataEntityMapping: Sendable, Equatable {
    /// `NSMappingName`: `<Source>To<Destination>`, or the destination alone for an add mapping.
    public var name: String
    public var type: CoreDataEntityMappingType
    /// Nil for an add mapping.
    public var sourceEntityName: String?
    public var sourceEntityVersionHash: [UInt8]?
    public var destinationEntityName: String?
    public var destinationEntityVersionHash: [UInt8]?
    /// Which source objects the mapping takes: a `FETCH` of `fetchRequestForSourceEntityNamed:predicateString:`
    /// (the exact entity, sub-entities excluded); nil for an add mapping.
    public var sourceExpression: ArchivedExpression?
    /// The `NSEntityMigrationPolicy` subclass that runs the mapping, when it is app code.
    public var migrationPolicyClassName: String?
    /// One per destination attribute the mapping sets, by name case-insensitively.
    public var attributeMappings: [CoreDataPropertyMapping]
    /// One per destination relationship the mapping sets, in the same order.
    public var relationshipMappings: [CoreDataPropertyMapping]

    public init(name: String, type: CoreDataEntityMappingType, sourceEntityName: String?, sourceEntityVersionHash: [UInt8]?,
                destinationEntityName: String?, destinationEntityVersionHash: [UInt8]?, sourceExpression: ArchivedExpression?,
                migrationPolicyClassName: String?, attributeMappings: [CoreDataPropertyMapping],
                relationshipMappings: [CoreDataPropertyMapping]) {
        self.name = name
        self.type = type
        self.sourceEntityName = sourceEntityName
        self.sourceEntityVersionHash = sourceEntityVersionHash
        self.destinationEntityName = destinationEntityName
        self.destinationEntityVersionHash = destinationEntityVersionHash
        self.sourceExpression = sourceExpression
        self.migrationPolicyClassName = migrationPolicyClassName
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
    }

    /// The predicate text of the source fetch (`TRUEPREDICATE` when the mapping takes every
    /// object), when the source expression has the form the mapping compiler writes.
    public var sourcePredicate: String? {
        sourceExpression.flatMap(MappingExpressionForm.sourceFetch)?.predicate
    }
}

/// `NSEntityMappingType`.
public enum CoreDataEntityMappingType: Int, Sendable, Equatable, CaseIterable {
    case undefined = 0
    /// Runs a custom migration policy class.
    case custom = 1
    /// Creates nothing from source objects (no source entity).
    case add = 2
    case remove = 3
    /// The same entity name in both versions.
    case copy = 4
    /// The source and destination entity names differ.
    case transform = 5

    /// The name Core Data's headers give it, without the prefix (`copy`, `add`, …).
    public var name: String {
        switch self {
        case .undefined: "undefined"
        case .custom: "custom"
        case .add: "add"
        case .remove: "remove"
        case .copy: "copy"
        case .transform: "transform"
        }
    }
}
