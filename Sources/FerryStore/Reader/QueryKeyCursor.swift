/// Streams the `Z_PK`s a fetch selects, in its sort order, on the reader's connection (so inside
/// a read transaction begun with `beginRead()` it sees the same state as the record cursors).
public final class QueryKeyCursor {
    private let statement: SQLiteStatement
    private var finished = false

    init(statement: SQLiteStatement) {
        self.statement = statement
    }

    /// The next primary key, or nil after the last one.
    public func next() throws(StoreReaderError) -> Int64? {
        guard !finished else { return nil }
        do {
            guard try statement.step() else {
                finished = true
                statement.finalize()
                return nil
            }
        } catch {
            finished = true
            statement.finalize()
            throw StoreReaderError(error)
        }
        return statement.int64(at: 0)
    }
}

extension StoreRecordReader {
    /// The primary keys of the objects a fetch selects (the entity and its sub-entities), in its
    /// sort order with ties broken by `Z_PK`.
    /// - Throws: `.invalidModel` when the predicate or sort keys do not fit the model; SQLite errors.
    public func primaryKeys(matching query: PredicateQuery) throws(StoreReaderError) -> QueryKeyCursor {
        let compiled: CompiledQuery
        do { compiled = try query.compile(with: PredicateCompiler(model: model, layout: layout)) } catch {
            throw .invalidModel(path: store.path, reason: "predicate: \(error)")
        }
        let statement = try StoreReaderError.sqlite { () throws(SQLiteError) in try compiled.prepare(on: store.database) }
        return QueryKeyCursor(statement: statement)
    }
}
