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

    /// The first number of Core Data's own entities: persistent history from 16000 (`CHANGE`
    /// 16001, `TRANSACTION` 16002, `TRANSACTIONSTRING` 16003), CloudKit mirroring from 17000
    /// (coredata-format.md §2).
    public static let firstSystemEntityNumber: Int64 = 16_000

    /// Whether the entity is Core Data's own, not the app's.
    public var isSystemEntity: Bool { entityNumber >= Self.firstSystemEntityNumber }

    /// The names of the persistent history's entities.
    public static let historyEntityNames: Set<String> = ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"]
    /// How the names of CloudKit mirroring's entities begin (`NSCKRecordMetadata`, `NSCKEvent`, …).
    public static let mirroringEntityPrefix = "NSCK"

    /// Whether `name` is one Core Data gives its own entities (where no entity number is at
    /// hand: a `Z_NAME` kept by name only).
    public static func isSystemEntityName(_ name: String) -> Bool {
        historyEntityNames.contains(name) || name.hasPrefix(mirroringEntityPrefix)
    }

    public init(entityNumber: Int64, name: String, superNumber: Int64, maxPrimaryKey: Int64) {
        self.entityNumber = entityNumber
        self.name = name
        self.superNumber = superNumber
        self.maxPrimaryKey = maxPrimaryKey
    }
}
