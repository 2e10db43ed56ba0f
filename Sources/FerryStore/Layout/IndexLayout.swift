/// One index of a Core Data store, with its exact `CREATE INDEX` statement.
public struct IndexLayout: Sendable, Equatable, Hashable {
    public var name: String
    public var table: String
    /// The indexed columns, in index order.
    public var columns: [String]
    public var isUnique: Bool
    /// The statement Core Data uses to create the index, byte for byte.
    public var createStatement: String

    public init(name: String, table: String, columns: [String], isUnique: Bool, createStatement: String) {
        self.name = name
        self.table = table
        self.columns = columns
        self.isUnique = isUnique
        self.createStatement = createStatement
    }
}
