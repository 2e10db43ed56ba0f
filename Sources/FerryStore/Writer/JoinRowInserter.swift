/// Inserts the pairs of a many-to-many relationship as rows of its join table, in the
/// relationship's direction, through one prepared statement in the writer's batch transaction.
/// Order keys, when the relationship is ordered, stay NULL.
public final class JoinRowInserter {
    private let writer: CoreDataStoreWriter
    private let statement: SQLiteStatement

    init(writer: CoreDataStoreWriter, statement: SQLiteStatement) {
        self.writer = writer
        self.statement = statement
    }

    /// Inserts the pair of the source row `source` and the destination row `destination` (their `Z_PK`s).
    public func insert(source: Int64, destination: Int64) throws(StoreWriterError) {
        try writer.beginRow()
        let statement = statement
        try StoreWriterError.sqlite { () throws(SQLiteError) in
            defer { try? statement.reset() }
            try statement.bind(source, at: 1)
            try statement.bind(destination, at: 2)
            try statement.run()
        }
    }
}

extension CoreDataStoreWriter {
    /// An inserter of pairs of the many-to-many `relationship` of `entity` (declared by it or an
    /// ancestor).
    /// - Throws: `.noJoinTable` when the layout keeps the relationship's pairs elsewhere.
    public func joinRowInserter(for relationship: String, of entity: String) throws(StoreWriterError) -> JoinRowInserter {
        guard case .joinTable(let join) = layout.placement(of: relationship, of: entity) else {
            throw .noJoinTable(entity: entity, relationship: relationship)
        }
        let statement = try prepareStatement("INSERT INTO \(join.table) (\(join.source), \(join.destination)) VALUES (?, ?)")
        return JoinRowInserter(writer: self, statement: statement)
    }
}
