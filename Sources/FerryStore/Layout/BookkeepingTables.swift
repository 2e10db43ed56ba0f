/// The tables Core Data keeps besides the entity tables (coredata-format.md §2). Their DDL is the
/// same in every framework version seen (241…1344).
public enum BookkeepingTables {
    /// One row per entity: number, name, parent number (0 for roots), highest `Z_PK` handed out.
    public static let primaryKey = TableLayout(
        name: "Z_PRIMARYKEY", kind: .bookkeeping,
        columns: columns([("Z_ENT", "INTEGER"), ("Z_NAME", "VARCHAR"), ("Z_SUPER", "INTEGER"), ("Z_MAX", "INTEGER")]),
        createStatement: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")

    /// One row (`Z_VERSION` 1): the store UUID and the metadata binary plist.
    public static let metadata = TableLayout(
        name: "Z_METADATA", kind: .bookkeeping,
        columns: columns([("Z_VERSION", "INTEGER"), ("Z_UUID", "VARCHAR(255)"), ("Z_PLIST", "BLOB")]),
        createStatement: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")

    /// The compressed, keyed-archived model the store was written with (framework 754 on).
    public static let modelCache = TableLayout(
        name: "Z_MODELCACHE", kind: .bookkeeping,
        columns: columns([("Z_CONTENT", "BLOB")]),
        createStatement: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")

    /// All three, in the order Core Data creates them.
    public static let all = [primaryKey, metadata, modelCache]

    private static func columns(_ pairs: [(String, String)]) -> [ColumnLayout] {
        pairs.map { ColumnLayout(name: $0.0, declaredType: $0.1, role: .bookkeeping) }
    }
}
