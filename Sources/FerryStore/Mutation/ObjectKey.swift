/// One object of a store: its concrete entity and its `Z_PK`.
public struct ObjectKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var entity: String
    public var primaryKey: Int64

    public init(entity: String, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    /// `Entity(Z_PK)`, e.g. `Book(12)`.
    public var description: String { "\(entity)(\(primaryKey))" }

    public static func < (lhs: ObjectKey, rhs: ObjectKey) -> Bool {
        (lhs.entity, lhs.primaryKey) < (rhs.entity, rhs.primaryKey)
    }
}
