import FerryModel

/// How one table of a plain SQLite database is read as an entity.
public struct PlainTable: Sendable, Equatable {
    /// The entity name (the table name, sanitized).
    public var entity: String
    public var table: String
    public var key: PlainRowKey
    /// Columns read as attributes, in table order (foreign keys that became relationships left out).
    public var attributes: [PlainColumn]
    /// Foreign keys read as to-one relationships.
    public var foreignKeys: [PlainForeignKey]
}

/// What a plain table's records use as their primary key.
public enum PlainRowKey: Sendable, Equatable {
    /// The rowid (tables without an `INTEGER PRIMARY KEY`).
    case rowid
    /// An `INTEGER PRIMARY KEY` column (the rowid's alias), or the single integer primary-key
    /// column of a `WITHOUT ROWID` table.
    case column(String)
    /// A `WITHOUT ROWID` table with any other primary key: the row's 1-based position in
    /// primary-key order. Stable only while the table is unchanged; foreign keys pointing at
    /// such tables stay plain attributes.
    case position(primaryKeyColumns: [String])
}

/// A column read as an attribute.
public struct PlainColumn: Sendable, Equatable {
    public var attribute: String
    public var column: String
    public var declaredType: String
    public var type: AttributeType
}

/// A single-column foreign key to a table keyed by `.column`, read as a to-one relationship,
/// with a to-many inverse on the parent entity.
public struct PlainForeignKey: Sendable, Equatable {
    public var relationship: String
    public var column: String
    public var destinationEntity: String
    /// The to-many inverse on the destination.
    public var inverse: String

    public init(relationship: String, column: String, destinationEntity: String, inverse: String) {
        self.relationship = relationship
        self.column = column
        self.destinationEntity = destinationEntity
        self.inverse = inverse
    }
}
