import FerryModel

/// How records of one model version become records of the next: one entity mapping per
/// destination entity that receives records, and what happens to each source entity.
public struct MappingModel: Sendable {
    public var sourceVersion: String
    public var destinationVersion: String
    /// The Core Data mapping model the step runs (`DeclarativeMapping`), when it runs one.
    public var mappingModelPath: String?
    /// Mappings from source entities (records flow), in destination entity order.
    public var entities: [EntityMapping]
    /// Further mappings of source entities that have one in `entities`: each makes a record of
    /// its own from the same source record (a Core Data mapping model's second entity mapping of
    /// one source entity).
    public var branches: [EntityMapping] = []
    /// Entity mappings Ferry cannot run: a record of such a source entity that reaches this step
    /// stops the migration with the reason.
    public var refused: [RefusedMapping] = []
    /// Source entities whose records are not carried (removed from the model, or no mapping).
    public var droppedEntities: [String]
    /// Source entities that a destination entity matches but that no entity mapping takes, with
    /// why (it became abstract): unlike dropped ones, their records are rejected with the reason.
    public var unmappedEntities: [String: String] = [:]
    /// Destination entities no source entity feeds (new in this version).
    public var addedEntities: [String]
    /// Renames inference did not apply (identical definitions, similar names): hints only.
    public var suggestions: [String]

    public init(sourceVersion: String, destinationVersion: String, entities: [EntityMapping] = [],
                droppedEntities: [String] = [], addedEntities: [String] = [], suggestions: [String] = []) {
        self.sourceVersion = sourceVersion
        self.destinationVersion = destinationVersion
        self.entities = entities
        self.droppedEntities = droppedEntities
        self.addedEntities = addedEntities
        self.suggestions = suggestions
    }

    /// The mapping that takes records of a source entity.
    public func mapping(forSource entity: String) -> EntityMapping? {
        entities.first { $0.source == entity }
    }

    /// The further mappings that make records of their own from records of a source entity.
    public func branches(forSource entity: String) -> [EntityMapping] {
        branches.filter { $0.source == entity }
    }

    /// Why records of a source entity that no entity mapping takes, and that this step does not
    /// drop, are rejected: what inference found (`unmappedEntities`), else that no mapping takes them.
    public func unmappedReason(forSource entity: String) -> String {
        unmappedEntities[entity] ?? "no mapping of \(sourceVersion) → \(destinationVersion) takes its records, and none drops them"
    }

    /// Why records of a source entity cannot cross this step, if they cannot.
    public func refusal(forSource entity: String) -> RefusedMapping? {
        refused.first { $0.source == entity }
    }
}

/// Where a rule came from.
public enum MappingOrigin: String, Sendable, Codable {
    /// Inferred from the two models, as Core Data's lightweight migration would.
    case inferred
    /// Written in a mapping file.
    case written
    /// Taken from a Core Data mapping model (`.xcmappingmodel`, `.cdm`).
    case mappingModel = "mapping model"
}

/// How records of one source entity become records of one destination entity.
public struct EntityMapping: Sendable {
    public var source: String
    public var destination: String
    /// Only source records for which this holds are carried; others are filtered (and counted).
    public var filter: RecordFilter?
    /// One rule per destination attribute, in the destination schema's order.
    public var attributes: [AttributeMapping]
    /// Destination relationship ← source relationship, for links to carry.
    public var relationships: [RelationshipMapping]
    /// Destination relationships linked to the record another mapping of the step makes from the
    /// same source record (a mapping model's `…sourceInstances:$source`).
    public var sourceRecordLinks: [String] = []
    /// Destination relationships whose records are made from the source record's values.
    public var madeRecords: [MadeRecordRule] = []
    /// What to do with records colliding on the destination's uniqueness constraints (or on
    /// `identity`).
    public var duplicates: DuplicatePolicy?
    /// Destination attributes that identify a record where the model has no uniqueness
    /// constraint for them: records with equal values are duplicates.
    public var identity: [String]?
    /// `note "TEXT" if CONDITION`: records counted and reported, not changed.
    public var notes: [MappingNote] = []
    public var origin: MappingOrigin

    public init(source: String, destination: String, filter: RecordFilter? = nil, attributes: [AttributeMapping] = [],
                relationships: [RelationshipMapping] = [], duplicates: DuplicatePolicy? = nil, origin: MappingOrigin = .inferred) {
        self.source = source
        self.destination = destination
        self.filter = filter
        self.attributes = attributes
        self.relationships = relationships
        self.duplicates = duplicates
        self.origin = origin
    }

    /// The source attributes whose values some rule carries (copies, converts, or reads in an
    /// expression or a made record's arguments).
    public var readAttributes: Set<String> {
        Set(attributes.flatMap(\.rule.sourceAttributes) + madeRecords.flatMap(\.sourceAttributes))
    }

    /// The rule for a destination attribute.
    public func rule(for attribute: String) -> AttributeMapping? {
        attributes.first { $0.destination == attribute }
    }
}

/// The value of one destination attribute.
public struct AttributeMapping: Sendable {
    public var destination: String
    public var rule: ValueRule
    public var origin: MappingOrigin
    /// What a failing value does to its record.
    public var onFailure: FailurePolicy

    public init(destination: String, rule: ValueRule, origin: MappingOrigin = .inferred, onFailure: FailurePolicy = .reject) {
        self.destination = destination
        self.rule = rule
        self.origin = origin
        self.onFailure = onFailure
    }
}

/// What a value that cannot be produced does.
public enum FailurePolicy: String, Sendable, Codable, CaseIterable {
    /// The record is rejected with the reason (the default).
    case reject
    /// The attribute becomes nil (or its default when required), and the conversion is reported.
    case null
}

/// Where a destination attribute's value comes from.
public enum ValueRule: Sendable {
    /// The source attribute's value as it is (same type).
    case copy(source: String)
    /// The source attribute's value converted to the destination type (`ValueConversion`).
    case convert(source: String, from: AttributeType, to: AttributeType)
    /// The destination's model default (nil when it has none).
    case defaultValue
    /// A written expression over the source record.
    case expression(MappingExpression)

    /// The source attributes the rule reads.
    public var sourceAttributes: [String] {
        switch self {
        case .copy(let source), .convert(let source, _, _): [source]
        case .defaultValue: []
        case .expression(let expression): expression.referencedAttributes.sorted()
        }
    }
}

/// A destination relationship fed by a source relationship's links.
public struct RelationshipMapping: Sendable, Equatable {
    public var destination: String
    public var source: String
    public var origin: MappingOrigin

    public init(destination: String, source: String, origin: MappingOrigin = .inferred) {
        self.destination = destination
        self.source = source
        self.origin = origin
    }
}
