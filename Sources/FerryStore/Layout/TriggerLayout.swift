/// One trigger of a Core Data store, with its exact `CREATE TRIGGER` statement.
public struct TriggerLayout: Sendable, Equatable, Hashable {
    public var name: String
    /// The table whose changes fire it.
    public var table: String
    /// The statement Core Data uses to create the trigger, byte for byte.
    public var createStatement: String

    public init(name: String, table: String, createStatement: String) {
        self.name = name
        self.table = table
        self.createStatement = createStatement
    }
}
