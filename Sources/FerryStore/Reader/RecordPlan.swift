import FerryModel

/// How the rows of one query become records: which result column holds what, per concrete entity.
/// Result column 0 is always the primary key.
struct RecordPlan {
    /// The database file, for errors.
    let path: String
    let table: String
    let sql: String
    /// The result column holding the concrete entity number (`Z_ENT`); nil for plain tables.
    let entityColumn: Int32?
    /// The result column holding the optimistic-locking version (`Z_OPT`); nil for plain tables.
    var versionColumn: Int32? = nil
    /// The same query for the rows from a `Z_PK` on (`Z_PK >= ?1`), for reading the table on
    /// worker threads in ranges of keys (`SplitRecordScan`); nil: one statement reads the rows.
    var splitSQL: String? = nil
    /// The shape of each concrete entity by number (plain tables use 0).
    let shapes: [Int64: RecordShape]
    /// Entity names by number, for `Z<n>_` columns.
    let entityNames: [Int64: String]

    /// Whether the rows are a Core Data store's, whose values are read only in the storage
    /// classes Core Data writes (`ColumnValueDecoder`); a plain table's are read by any exact
    /// conversion.
    var isCoreDataStore: Bool { entityColumn != nil }
}

/// The columns of one concrete entity. A class: every row a cursor moves to refers to its
/// entity's shape, and a reference is one retain where a struct's string and arrays are three.
final class RecordShape: Sendable {
    let entity: String
    let attributes: [AttributeColumn]
    let toOne: [ToOneColumns]

    init(entity: String, attributes: [AttributeColumn], toOne: [ToOneColumns]) {
        self.entity = entity
        self.attributes = attributes
        self.toOne = toOne
    }
}

/// An attribute and the result column it is read from.
struct AttributeColumn {
    let index: Int32
    let column: String
    let name: String
    let type: AttributeType
    /// Whether values carry Core Data's external-storage tag (`ExternalBinaryData`).
    var isExternallyStorable = false
}

/// A to-one relationship and its result columns: the key, and optionally the destination's
/// entity number (`Z<n>_<REL>`) and the order key (`Z_FOK_<REL>`).
struct ToOneColumns {
    let name: String
    let keyIndex: Int32
    let keyColumn: String
    let entityIndex: Int32?
    let orderIndex: Int32?
    let destination: String
}

/// Selected columns, numbered in the order they are added; a column named twice is selected once.
struct ColumnSelection {
    private(set) var names: [String] = []

    mutating func index(of name: String) -> Int32 {
        if let existing = names.firstIndex(of: name) { return Int32(existing) }
        names.append(name)
        return Int32(names.count - 1)
    }
}
