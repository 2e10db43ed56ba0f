import FerryMigration

/// Inserts the records of one entity hierarchy in `Z_PK` order so that each gets its original
/// key: the keys between one record and the next are reserved (left unused), and a record out
/// of order, or one the store merges into another on a uniqueness constraint, is an error.
struct KeyPreservingInsert {
    let graph: StoreGraphWriter
    let root: String
    private var nextKey: Int64 = 1

    init(graph: StoreGraphWriter, root: String) {
        self.graph = graph
        self.root = root
    }

    /// Writes `record` (whose key is `primaryKey`) of `schema`'s entity; `origin` names where it
    /// came from, for errors.
    mutating func insert(_ record: Record, primaryKey: Int64, schema: RecordSchema, origin: String) throws {
        if primaryKey < nextKey {
            throw ExportError.verification(path: origin, reason: "Z_PK \(primaryKey) is out of order or repeated (restore needs records in Z_PK order, as written without --sort)")
        }
        if primaryKey > nextKey {
            _ = try graph.writer.reservePrimaryKeys(root: root, count: Int(primaryKey - nextKey))
        }
        switch try graph.write(record, schema: schema, namespace: 0) {
        case .inserted: break
        case .merged, .rejected(_):
            throw ExportError.restore(reason: "\(origin): Z_PK \(primaryKey) collides with another record on a uniqueness constraint")
        }
        nextKey = primaryKey + 1
    }
}
