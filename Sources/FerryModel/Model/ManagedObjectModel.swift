/// One version of a managed object model: its entities and the model-level settings.
///
/// Entities are kept in byte order of their names (as the version-hash digest sorts them; numbering
/// uses `EntityNameOrder`). Inherited properties and
/// the inheritance tree are computed on demand from the declared ones.
public struct ManagedObjectModel: Sendable, Equatable, Codable {
    /// The version name (`Workspace 2` for `Workspace 2.xcdatamodel`), or the file name of a lone model.
    public var name: String
    /// Xcode's `userDefinedModelVersionIdentifier`; nil when the model has none.
    public var versionIdentifier: String?

    /// The model's version identifiers as Core Data writes them into a store's metadata
    /// (`NSStoreModelVersionIdentifiers`) and its model archive: the identifier, empty text
    /// included (Xcode's models), or none for a model without one (a model built in code).
    public var versionIdentifiers: [String] { versionIdentifier.map { [$0] } ?? [] }
    public private(set) var entities: [Entity]
    public var configurations: [Configuration]
    public var fetchRequests: [FetchRequestTemplate]
    public var userInfo: [String: String]
    /// How a model archive lists inherited properties in sub-entities: decoded from a store's model
    /// cache, copies for models from anywhere else.
    public var inheritedPropertyForm: InheritedPropertyForm
    /// What the Xcode model file says about editing and use (`usedWithSwiftData`, …): read from
    /// XML and written back, never archived or hashed.
    public var xcodeSettings: XcodeModelSettings

    public init(name: String, versionIdentifier: String? = nil, entities: [Entity],
                configurations: [Configuration] = [], fetchRequests: [FetchRequestTemplate] = [],
                userInfo: [String: String] = [:], inheritedPropertyForm: InheritedPropertyForm = .copies,
                xcodeSettings: XcodeModelSettings = XcodeModelSettings()) {
        self.name = name
        self.versionIdentifier = versionIdentifier
        self.entities = entities.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        self.configurations = configurations
        self.fetchRequests = fetchRequests
        self.userInfo = userInfo
        self.inheritedPropertyForm = inheritedPropertyForm
        self.xcodeSettings = xcodeSettings
    }

    /// The entity with this name.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// The direct sub-entities of an entity, in Core Data's numbering order (`EntityNameOrder`).
    public func subentities(of name: String) -> [Entity] {
        entities.filter { $0.parentName == name }.sorted { EntityNameOrder.precedes($0.name, $1.name) }
    }

    /// The chain from an entity up to its root, starting with the entity itself.
    public func ancestry(of name: String) -> [Entity] {
        var chain: [Entity] = []
        var next: String? = name
        while let current = next, let entity = entity(named: current), !chain.contains(where: { $0.name == current }) {
            chain.append(entity)
            next = entity.parentName
        }
        return chain
    }

    /// The root of an entity's inheritance tree (the entity itself when it has no parent).
    public func rootEntity(of name: String) -> Entity? {
        ancestry(of: name).last
    }

    /// The entity and all entities below it, in pre-order (the entity first), siblings in
    /// Core Data's numbering order.
    public func hierarchy(below name: String) -> [Entity] {
        guard let top = entity(named: name) else { return [] }
        return [top] + subentities(of: name).flatMap { hierarchy(below: $0.name) }
    }

    /// All attributes of an entity, inherited ones first (root down), as Core Data sees them.
    public func allAttributes(of name: String) -> [Attribute] {
        ancestry(of: name).reversed().flatMap(\.attributes)
    }

    /// All relationships of an entity, inherited ones first.
    public func allRelationships(of name: String) -> [Relationship] {
        ancestry(of: name).reversed().flatMap(\.relationships)
    }

    /// The entity that declares a property an entity has (itself or the nearest ancestor).
    public func declaringEntity(ofProperty property: String, in entity: String) -> Entity? {
        ancestry(of: entity).first { owner in
            owner.attributes.contains { $0.name == property } || owner.relationships.contains { $0.name == property }
        }
    }

    /// The inverse of a relationship, if the model names one.
    public func inverse(of relationship: Relationship) -> Relationship? {
        guard let inverseName = relationship.inverseName else { return nil }
        return allRelationships(of: relationship.destinationEntity).first { $0.name == inverseName }
    }

    /// Whether `relationship` is a many-to-many ordered on both sides: its pairs are one set, with
    /// an order of each side's own.
    public func isOrderedOnBothSides(_ relationship: Relationship) -> Bool {
        guard relationship.isToMany, relationship.isOrdered, let inverse = inverse(of: relationship) else { return false }
        return inverse.isToMany && inverse.isOrdered
    }

    /// Whether the pairs of a many-to-many are read from `relationship`'s side (of `entity`,
    /// declared by it or an ancestor) rather than from `inverse`'s, when one side is read: the
    /// ordered side when only one is (only its reading has the order; the other side's would be
    /// made up), otherwise the side whose `DeclaringEntity.relationship` sorts first. Exactly one
    /// of the two sides is chosen.
    public func readsManyToManyPairs(from relationship: Relationship, of entity: String, inverse: Relationship) -> Bool {
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        let owner = declaringEntity(ofProperty: relationship.name, in: entity)?.name ?? entity
        let inverseOwner = declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity)?.name
            ?? relationship.destinationEntity
        return (owner, relationship.name) <= (inverseOwner, inverse.name)
    }

    /// Entity numbers as Core Data assigns them (`Z_ENT`, coredata-format.md §2): roots in
    /// `EntityNameOrder` (case-insensitive), each followed depth-first by its sub-entities in the
    /// same order, from 1. A store written by Core Data may number differently (an older rule, a
    /// renamed entity): readers take a store's numbers from its own `Z_PRIMARYKEY`.
    public var entityNumbers: [String: Int] {
        var numbers: [String: Int] = [:]
        var next = 1
        let roots = entities.filter { root in root.parentName.map { entity(named: $0) == nil } ?? true }
        for root in roots.sorted(by: { EntityNameOrder.precedes($0.name, $1.name) }) {
            for member in hierarchy(below: root.name) where numbers[member.name] == nil {
                numbers[member.name] = next
                next += 1
            }
        }
        return numbers
    }

    /// Two entity names that differ only in case, if the model has such a pair: Core Data cannot
    /// number them, and they would share one table.
    public var entityNamesEqualIgnoringCase: (String, String)? {
        let sorted = entities.map(\.name).sorted { EntityNameOrder.precedes($0, $1) }
        for (first, second) in zip(sorted, sorted.dropFirst()) where EntityNameOrder.equalIgnoringCase(first, second) {
            return (first, second)
        }
        return nil
    }

    /// Entities in `Z_ENT` order.
    public var entitiesInStoreOrder: [Entity] {
        let numbers = entityNumbers
        return entities.sorted { (numbers[$0.name] ?? .max) < (numbers[$1.name] ?? .max) }
    }
}

/// A named configuration: a subset of a model's entities.
public struct Configuration: Sendable, Equatable, Codable {
    public var name: String
    public var entityNames: [String]

    public init(name: String, entityNames: [String]) {
        self.name = name
        self.entityNames = entityNames
    }
}

/// A fetch request stored in the model (Xcode's model-level `<fetchRequest>`).
public struct FetchRequestTemplate: Sendable, Equatable, Codable {
    public var name: String
    public var entity: String
    public var predicateString: String?

    public init(name: String, entity: String, predicateString: String? = nil) {
        self.name = name
        self.entity = entity
        self.predicateString = predicateString
    }
}
