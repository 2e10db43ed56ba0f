import FerryModel

/// What `ModelInference` guessed, entity by entity, and from how many values.
public struct InferenceReport: Sendable, Equatable {
    /// The entities, the records' own first, then those made for relationships in the order found.
    public var entities: [InferredEntity]
}

/// One entity of an inferred model.
public struct InferredEntity: Sendable, Equatable {
    public var name: String
    /// The relationship key whose objects or values became this entity (`Task.attachments`), or
    /// nil for the records' own entity.
    public var origin: String?
    /// Records (or nested objects) seen; for an entity of values, the values seen.
    public var records: Int
    public var attributes: [InferredAttribute] = []
    public var relationships: [InferredRelationship] = []
    /// The attribute given a uniqueness constraint, if any.
    public var uniqueAttribute: String?
    /// Other attributes whose values were unique and never blank too (no constraint written).
    public var alsoUnique: [String] = []
    /// Attributes whose uniqueness was not checked to the end: the distinct-value budget ran out
    /// after this many of their values.
    public var uniquenessNotChecked: [(attribute: String, after: Int)] = []
    /// Keys of the source that are not in the model, and why.
    public var leftOut: [(key: String, reason: String)] = []

    public static func == (lhs: InferredEntity, rhs: InferredEntity) -> Bool {
        lhs.name == rhs.name && lhs.origin == rhs.origin && lhs.records == rhs.records && lhs.attributes == rhs.attributes
            && lhs.relationships == rhs.relationships && lhs.uniqueAttribute == rhs.uniqueAttribute && lhs.alsoUnique == rhs.alsoUnique
            && lhs.uniquenessNotChecked.elementsEqual(rhs.uniquenessNotChecked, by: { $0 == $1 })
            && lhs.leftOut.elementsEqual(rhs.leftOut, by: { $0 == $1 })
    }
}

/// One attribute of an inferred entity.
public struct InferredAttribute: Sendable, Equatable {
    /// The key of the source (the attribute's renaming identifier when the name differs).
    public var key: String
    public var name: String
    public var type: AttributeType
    /// What the type was read from (`integers 0 to 9`).
    public var basis: String
    /// Values the type was chosen from.
    public var values: Int
    /// Records without a value (missing, null, or empty where the type reads empty as nil).
    public var missing: Int
    public var isOptional: Bool { missing > 0 }
    /// A second reading the values allow (numbers a name calls a time, on another epoch).
    public var note: String?
}

/// One relationship of an inferred entity.
public struct InferredRelationship: Sendable, Equatable {
    public var key: String
    public var name: String
    public var destination: String
    public var isToMany: Bool
    public var inverse: String
    /// Objects or values the relationship was made from.
    public var values: Int
    /// `nested objects` or `values that find a destination by its unique attribute`.
    public var basis: String
}
