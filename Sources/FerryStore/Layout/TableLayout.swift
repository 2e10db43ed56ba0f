/// What a store table is for.
public enum TableKind: Sendable, Equatable, Hashable {
    /// `Z<ROOT>`: the rows of a root entity and of every entity below it (`members`, in pre-order).
    case entity(root: String, members: [String])
    /// `Z_<n><REL>`: the pairs of a many-to-many relationship, named after `relationship` of `entity`.
    case join(entity: String, relationship: String)
    /// `Z_PRIMARYKEY`, `Z_METADATA` or `Z_MODELCACHE`.
    case bookkeeping
}

/// One table of a Core Data store, with its exact `CREATE TABLE` statement.
public struct TableLayout: Sendable, Equatable, Hashable {
    public var name: String
    public var kind: TableKind
    public var columns: [ColumnLayout]
    /// The statement Core Data uses to create the table, byte for byte.
    public var createStatement: String

    public init(name: String, kind: TableKind, columns: [ColumnLayout], createStatement: String) {
        self.name = name
        self.kind = kind
        self.columns = columns
        self.createStatement = createStatement
    }

    /// Whether the table holds an entity's rows or a many-to-many's pairs (not bookkeeping).
    public var holdsRecordsOrPairs: Bool { kind != .bookkeeping }

    /// The column with this name.
    public func column(named name: String) -> ColumnLayout? { columns.first { $0.name == name } }

    /// The column holding this role.
    public func column(for role: ColumnRole) -> ColumnLayout? { columns.first { $0.role == role } }
}
