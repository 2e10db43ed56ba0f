/// One row of `Z_PRIMARYKEY`: an entity's number, name, parent and highest handed-out `Z_PK`.
public struct PrimaryKeyEntry: Sendable, Equatable {
    /// `Z_ENT`.
    public var entityNumber: Int64
    /// `Z_NAME`; may be an older name after a renaming migration (coredata-format.md §2).
    public var name: String
    /// `Z_SUPER`: the parent's `Z_ENT`, 0 for roots.
    public var superNumber: Int64
    /// `Z_MAX`: the highest `Z_PK` handed out (kept on the root entity's row).
    public var maxPrimaryKey: Int64

    public init(entityNumber: Int64, name: String, superNumber: Int64, maxPrimaryKey: Int64) {
        self.entityNumber = entityNumber
        self.name = name
        self.superNumber = superNumber
        self.maxPrimaryKey = maxPrimaryKey
    }
}
