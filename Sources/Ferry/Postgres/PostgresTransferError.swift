import FerryPostgres

/// Why moving a store into PostgreSQL, or back out of it, failed. Messages never hold a
/// password (`PostgresError` is scrubbed, and targets are shown without one).
public enum PostgresTransferError: Error, CustomStringConvertible {
    /// Reading the store or its model failed, or writing the rebuilt store did.
    case export(ExportError)
    /// Talking to PostgreSQL failed.
    case database(PostgresError)
    /// The model has something the tables cannot represent.
    case unsupportedModel(String)
    /// A value PostgreSQL's column type cannot hold exactly (a Float that is not a 4-byte float,
    /// text with a NUL character, a date that is not finite).
    case invalidValue(entity: String, primaryKey: Int64, attribute: String, reason: String)
    /// The schema holds this store already and `--replace` was not given.
    case alreadyLoaded(store: String, schema: String)
    /// With `--replace`, another run loaded the store while this one was loading it.
    case loadedMeanwhile(store: String, schema: String)
    /// Another store of the same run has this store's UUID: loaded after it, it would replace
    /// its rows (or be refused as loaded).
    case sameUUIDInRun(store: String, otherPath: String)
    /// The schema's tables were made for a model whose tables differ.
    case otherLayout(schema: String, model: String)
    /// The schema holds a table Ferry did not make where Ferry would make or use one of its own
    /// (a catalog table of the application's, a table with the name of one of the layout's):
    /// Ferry neither alters nor writes it.
    case foreignTable(schema: String, table: String, reason: String)
    /// The schema holds no store with this UUID (or no Ferry tables at all); `held` lists the
    /// stores it holds, as `UUID (source)` (nil: not listed).
    case notLoaded(store: String, schema: String, held: [String]?)
    /// Counted with SQL on both sides, the database does not hold what the store does: nothing
    /// of the store was kept.
    case verification(store: String, problems: [String])

    public var description: String {
        switch self {
        case .export(let error): error.description
        case .database(let error): error.description
        case .unsupportedModel(let reason): "the model cannot be laid out in PostgreSQL: \(reason)"
        case let .invalidValue(entity, primaryKey, attribute, reason):
            "\(entity) Z_PK \(primaryKey), \(attribute): \(reason)"
        case let .alreadyLoaded(store, schema):
            "store \(store) is already in schema \(schema) (--replace loads it again, replacing its rows)"
        case let .loadedMeanwhile(store, schema):
            "store \(store) was loaded into schema \(schema) by another run while this one loaded it; nothing of this run was kept "
                + "(run again to replace it)"
        case let .sameUUIDInRun(store, otherPath):
            "store \(store) is also the UUID of \(otherPath), loaded by this run: one schema keeps one store per UUID "
                + "(give one of them a new UUID, or load them into separate schemas)"
        case let .otherLayout(schema, model):
            "schema \(schema) holds the tables of another model (\(model)); use another --schema"
        case let .foreignTable(schema, table, reason):
            "schema \(schema) holds a table \(table) that Ferry did not make (\(reason)); Ferry neither alters nor writes it: "
                + "use another --schema, or rename that table"
        case let .notLoaded(store, schema, held):
            "schema \(schema) holds no store \(store)" + (held.map { held in
                held.isEmpty ? " (it holds no stores)"
                    : "; it holds \(held.count) (give --store one of their UUIDs, as `export --to` printed them): "
                        + held.prefix(10).joined(separator: ", ") + (held.count > 10 ? ", …" : "")
            } ?? "")
        case let .verification(store, problems):
            "\(store): the database does not hold what the store does, so nothing was kept:\n  " + problems.joined(separator: "\n  ")
        }
    }

    /// Whether the counts disagreed (exit code 5).
    public var isVerificationFailure: Bool {
        switch self {
        case .verification: true
        case .export(let error): error.isVerificationFailure
        default: false
        }
    }

    /// Whether the destination is to blame (exit code 4) rather than the input (3): the
    /// database when loading into it, the store file when restoring from it.
    public func isDestinationFailure(loadingDatabase: Bool) -> Bool {
        switch self {
        case .export(let error): error.isDestinationFailure
        case .database, .otherLayout, .foreignTable: loadingDatabase
        case .alreadyLoaded, .loadedMeanwhile: true
        case .unsupportedModel, .invalidValue, .notLoaded, .verification, .sameUUIDInRun: false
        }
    }
}

/// Runs database work, its errors as `PostgresTransferError.database`.
@discardableResult
func database<Result>(_ body: () throws(PostgresError) -> Result) throws(PostgresTransferError) -> Result {
    do { return try body() } catch { throw .database(error) }
}
