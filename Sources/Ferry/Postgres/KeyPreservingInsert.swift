import FerryMigration

/// Inserts the records of one entity hierarchy read from PostgreSQL in `Z_PK` order so that each
/// gets its original key (`SourceKeyOrder`, as the record pipeline does for a folder restore).
struct KeyPreservingInsert {
    let graph: StoreGraphWriter
    let root: String
    private var order = SourceKeyOrder()

    init(graph: StoreGraphWriter, root: String) {
        self.graph = graph
        self.root = root
    }

    /// Writes `record` (whose key is `primaryKey`) of `schema`'s entity; `origin` names where it
    /// came from, for errors.
    mutating func insert(_ record: Record, primaryKey: Int64, schema: RecordSchema, origin: String) throws {
        do throws(PipelineError) {
            try order.reserve(primaryKey, root: root, graph: graph, source: origin)
            let outcome: StoreGraphWriter.Outcome
            do { outcome = try graph.write(record, schema: schema, namespace: 0) } catch { throw .links(error) }
            try order.written(outcome, key: primaryKey, root: root, source: origin)
        } catch {
            switch error {
            case .keyOutOfOrder: throw ExportError.verification(path: origin, reason: error.keyReason ?? "")
            case .links(let failure): throw failure
            default: throw ExportError.restore(reason: error.description)
            }
        }
    }
}
