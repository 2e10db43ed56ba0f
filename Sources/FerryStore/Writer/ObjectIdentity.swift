/// What identifies a Core Data object across a migration: its `Z_PK` (the `pN` of its
/// `x-coredata://UUID/Entity/pN` URI) and its `Z_OPT` (the optimistic-locking version).
public struct ObjectIdentity: Sendable, Equatable, Hashable {
    public var primaryKey: Int64
    public var version: Int64

    public init(primaryKey: Int64, version: Int64) {
        self.primaryKey = primaryKey
        self.version = version
    }
}
