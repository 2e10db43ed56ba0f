/// Why a model cannot be laid out as a Core Data SQLite store.
public enum StoreLayoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name that would reach SQL is not a plain identifier (ASCII letters, digits, `_`).
    case invalidName(entity: String, name: String)
    /// Two root entities (or join tables) map to the same table name.
    case tableNameCollision(table: String, first: String, second: String)
    /// Two entities' names differ only in case: Core Data cannot number them, and their tables
    /// would collide.
    case entityNamesDifferOnlyInCase(first: String, second: String)
    /// A relationship names an entity that the model does not have.
    case unknownDestination(entity: String, relationship: String, destination: String)
    /// A relationship names an inverse its destination entity does not have.
    case unknownInverse(entity: String, relationship: String, inverse: String)
    /// An ordered to-many relationship has no inverse: no store shows where Core Data keeps its
    /// order, so it is refused (`ToManyKeys`).
    case orderedToManyWithoutInverse(entity: String, relationship: String)
    /// A to-many relationship without an inverse is declared by an entity with sub-entities: no
    /// store shows whether its key gets a `Z<n>_` column naming the source's entity, so it is
    /// refused (`ToManyKeys`).
    case toManyWithoutInverseFromHierarchy(entity: String, relationship: String)
    /// An index or uniqueness constraint names a property that has no column.
    case unknownIndexProperty(entity: String, index: String, property: String)
    /// R-tree fetch indexes need virtual tables, which this writer does not create.
    case unsupportedRTreeIndex(entity: String, index: String)

    public var description: String {
        switch self {
        case let .invalidName(entity, name):
            "entity \(entity): the name \"\(name)\" cannot be used in a store (only ASCII letters, digits and _)"
        case let .tableNameCollision(table, first, second):
            "\(first) and \(second) would both be stored in table \(table)"
        case let .entityNamesDifferOnlyInCase(first, second):
            "entities \(first) and \(second) differ only in case: Core Data cannot number them and would store both in one table"
        case let .unknownDestination(entity, relationship, destination):
            "entity \(entity), relationship \(relationship): destination entity \(destination) is not in the model"
        case let .unknownInverse(entity, relationship, inverse):
            "entity \(entity), relationship \(relationship): the inverse \(inverse) is not in its destination entity"
        case let .orderedToManyWithoutInverse(entity, relationship):
            "entity \(entity), relationship \(relationship): an ordered to-many relationship without an inverse cannot be stored"
                + " (no Core Data store shows where its order is kept; give it an inverse)"
        case let .toManyWithoutInverseFromHierarchy(entity, relationship):
            "entity \(entity), relationship \(relationship): a to-many relationship without an inverse cannot be stored when its"
                + " entity has sub-entities (no Core Data store shows how the key names the source's entity; give it an inverse)"
        case let .unknownIndexProperty(entity, index, property):
            "entity \(entity), index \(index): property \(property) has no column"
        case let .unsupportedRTreeIndex(entity, index):
            "entity \(entity), index \(index): R-tree indexes are not supported"
        }
    }
}
