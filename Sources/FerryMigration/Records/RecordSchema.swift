import FerryModel

/// The stored attributes of one entity in a fixed order, so records can carry their values in
/// an array instead of a dictionary.
///
/// A class: a schema is handed down the writing path with every record, and as a value (the
/// entity's description inline, 160 bytes) each hand-over was a `memcpy`. It never changes.
public final class RecordSchema: Sendable {
    public let entity: Entity
    /// Every non-transient attribute, inherited ones first.
    public let attributes: [Attribute]
    /// For each attribute, the entity that declares it (the entity itself or an ancestor).
    public let declaringEntities: [String]
    private let indexByName: [String: Int]

    public init?(model: ManagedObjectModel, entityName: String) {
        guard let entity = model.entity(named: entityName) else { return nil }
        self.entity = entity
        let declared = model.ancestry(of: entityName).reversed().flatMap { owner in
            owner.attributes.filter { !$0.isTransient && $0.type.sqlColumnType != nil }.map { (owner.name, $0) }
        }
        attributes = declared.map(\.1)
        declaringEntities = declared.map(\.0)
        indexByName = Dictionary(attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The position of an attribute by exact name.
    public func index(of name: String) -> Int? { indexByName[name] }
}
