/// An entity of a managed object model, with only the properties it declares itself.
/// Use `ManagedObjectModel` to see inherited properties and the inheritance tree.
public struct Entity: Sendable, Equatable, Codable {
    public var name: String
    public var representedClassName: String?
    public var parentName: String?
    public var isAbstract: Bool
    public var renamingIdentifier: String?
    public var versionHashModifier: String?
    public var attributes: [Attribute]
    public var relationships: [Relationship]
    public var fetchedProperties: [FetchedProperty]
    /// Each constraint is a list of property names that together must be unique.
    public var uniquenessConstraints: [[String]]
    public var fetchIndexes: [FetchIndex]
    public var userInfo: [String: String]

    public init(
        name: String, representedClassName: String? = nil, parentName: String? = nil, isAbstract: Bool = false,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil,
        attributes: [Attribute] = [], relationships: [Relationship] = [], fetchedProperties: [FetchedProperty] = [],
        uniquenessConstraints: [[String]] = [], fetchIndexes: [FetchIndex] = [], userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.representedClassName = representedClassName
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.userInfo = userInfo
    }

    /// The identifier that ties this entity to its earlier versions.
    public var effectiveRenamingIdentifier: String { renamingIdentifier ?? name }

    /// The declared attribute with this name.
    public func attribute(named name: String) -> Attribute? { attributes.first { $0.name == name } }

    /// The declared relationship with this name.
    public func relationship(named name: String) -> Relationship? { relationships.first { $0.name == name } }

    /// The names of the declared attributes, relationships and fetched properties, in that order.
    public var propertyNames: [String] { attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name) }
}
