import FerryModel

/// The pairs of a many-to-many relationship, or of a to-many one without an inverse: one row
/// per pair, (`store`, `source`, `destination`), with `position` (the order key Core Data kept)
/// when the relationship is ordered. Named `<Entity>_<relationship>` after the side that carries
/// the pairs (`RelationshipSide`).
public struct PostgresJoinTable: Sendable {
    public let name: String
    /// The entity that declares the relationship.
    public let entity: String
    public let relationship: String
    public let isOrdered: Bool
    public let foreignKeys: [PostgresForeignKey]
    static let sourceColumn = "source", destinationColumn = "destination", positionColumn = "position"

    init(relationship: Relationship, of entity: String, model: ManagedObjectModel, name: String,
         tableNames: [String: String]) throws(PostgresTransferError) {
        let inverse = model.inverse(of: relationship)
        if relationship.isOrdered, inverse?.isOrdered == true {
            throw .unsupportedModel("\(entity).\(relationship.name) and its inverse are both ordered; a join table keeps one order")
        }
        guard let source = model.rootEntity(of: entity).flatMap({ tableNames[$0.name] }),
              let destination = model.rootEntity(of: relationship.destinationEntity).flatMap({ tableNames[$0.name] }) else {
            throw .unsupportedModel("\(entity).\(relationship.name) points at \(relationship.destinationEntity), which is not in the model")
        }
        self.name = name
        self.entity = entity
        self.relationship = relationship.name
        isOrdered = relationship.isOrdered
        foreignKeys = [
            PostgresForeignKey(column: Self.sourceColumn, table: source, onDelete: PostgresDeleteAction(joinRule: relationship.deleteRule)),
            PostgresForeignKey(column: Self.destinationColumn, table: destination, onDelete: PostgresDeleteAction(joinRule: inverse?.deleteRule)),
        ]
    }

    /// The columns in table order.
    public var columns: [(name: String, type: PostgresColumnType)] {
        [(PostgresLayout.storeColumn, .uuid), (Self.sourceColumn, .bigint), (Self.destinationColumn, .bigint)]
            + (isOrdered ? [(Self.positionColumn, .bigint)] : [])
    }
}
