/// A relationship of an entity.
public struct Relationship: Sendable, Equatable, Codable {
    public var name: String
    public var destinationEntity: String
    public var inverseName: String?
    public var inverseEntity: String?
    public var isOptional: Bool
    public var isTransient: Bool
    public var isToMany: Bool
    /// Minimum number of destinations; 0 when unset.
    public var minCount: Int
    /// Maximum number of destinations; 0 means unbounded (to-one relationships have 1).
    public var maxCount: Int
    public var isOrdered: Bool
    public var deleteRule: DeleteRule
    /// Xcode's `spotlightIndexingEnabled`: the destination is indexed in Spotlight with the object.
    public var isIndexedBySpotlight: Bool
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String]
    /// Rules the destinations must pass; Xcode's editor cannot spell them, models built in code can.
    public var validationRules: [ValidationRule]

    /// The fewest destinations Core Data saves an object with: 1 for a required to-one, a
    /// to-many's minimum count, 0 for an optional to-one.
    public var minimumDestinations: Int { isToMany ? minCount : isOptional ? 0 : 1 }

    /// Whether it is a to-one that every saved object must fill.
    public var isRequiredToOne: Bool { !isToMany && !isOptional }

    public init(
        name: String, destinationEntity: String, inverseName: String? = nil, inverseEntity: String? = nil,
        isOptional: Bool = true, isTransient: Bool = false, isToMany: Bool = false,
        minCount: Int = 0, maxCount: Int? = nil, isOrdered: Bool = false, deleteRule: DeleteRule = .nullify,
        isIndexedBySpotlight: Bool = false,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        validationRules: [ValidationRule] = []
    ) {
        self.name = name
        self.destinationEntity = destinationEntity
        self.inverseName = inverseName
        self.inverseEntity = inverseEntity
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isToMany = isToMany
        self.minCount = minCount
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.isOrdered = isOrdered
        self.deleteRule = deleteRule
        self.isIndexedBySpotlight = isIndexedBySpotlight
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.validationRules = validationRules
    }

    /// The identifier that ties this relationship to its earlier versions.
    public var effectiveRenamingIdentifier: String { renamingIdentifier ?? name }
}
