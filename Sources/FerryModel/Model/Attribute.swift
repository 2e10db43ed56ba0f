/// An attribute of an entity, as an Xcode model or a compiled model describes it.
public struct Attribute: Sendable, Equatable, Codable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var isTransient: Bool
    /// Read-only: set for derived attributes.
    public var isReadOnly: Bool
    /// The default value as text (Xcode's `defaultValueString`); dates use `defaultDateTimeInterval`.
    /// Numeric and Boolean defaults loaded from XML hold what Apple's model compiler makes of the
    /// text (`YES` on an Integer 32 becomes `0`), as a decoded model cache does.
    public var defaultValueString: String?
    /// A date default in seconds since 2001-01-01 UTC.
    public var defaultDateTimeInterval: Double?
    public var minValueString: String?
    public var maxValueString: String?
    public var allowsExternalBinaryDataStorage: Bool
    public var preserveAfterDeletion: Bool
    public var isDerived: Bool
    /// A derived attribute's expression as predicate format text. Models loaded from XML or an
    /// archive hold Core Data's normalised form (`count:(pages)`, see `DerivationExpression`).
    public var derivationExpression: String?
    /// A derived attribute's filtering predicate (`NSFilteringPredicate`) as predicate format text.
    /// Models built in code can set it; no XML spelling is known, and no store in the corpus has one.
    public var filteringPredicate: String?
    public var valueTransformerName: String?
    public var customClassName: String?
    public var usesScalarValueType: Bool?
    /// Legacy single-attribute index (`indexed="YES"`).
    public var isIndexed: Bool
    public var isIndexedBySpotlight: Bool
    /// The renaming identifier (Xcode's `elementID`); nil means the name itself.
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var userInfo: [String: String]
    /// Rules the value must pass; Xcode's editor cannot spell them, models built in code can.
    public var validationRules: [ValidationRule]

    public init(
        name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
        isReadOnly: Bool = false, defaultValueString: String? = nil, defaultDateTimeInterval: Double? = nil,
        minValueString: String? = nil, maxValueString: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false, preserveAfterDeletion: Bool = false,
        isDerived: Bool = false, derivationExpression: String? = nil, filteringPredicate: String? = nil,
        valueTransformerName: String? = nil, customClassName: String? = nil, usesScalarValueType: Bool? = nil,
        isIndexed: Bool = false, isIndexedBySpotlight: Bool = false,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil, userInfo: [String: String] = [:],
        validationRules: [ValidationRule] = []
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.isReadOnly = isReadOnly
        self.defaultValueString = defaultValueString
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.preserveAfterDeletion = preserveAfterDeletion
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.filteringPredicate = filteringPredicate
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.usesScalarValueType = usesScalarValueType
        self.isIndexed = isIndexed
        self.isIndexedBySpotlight = isIndexedBySpotlight
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
        self.validationRules = validationRules
    }

    /// The identifier that ties this attribute to its earlier versions: the renaming identifier, or the name.
    public var effectiveRenamingIdentifier: String { renamingIdentifier ?? name }
}

extension Sequence<Attribute> {
    /// Each attribute's type by its name (the first of a name wins), as type checks of
    /// expressions and predicates take them.
    public var typesByName: [String: AttributeType] {
        Dictionary(map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first })
    }
}
