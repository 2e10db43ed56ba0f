/// Gives records the `Z_PK` their source gives them (a restore): the records of each entity
/// hierarchy come in `Z_PK` order, and the keys between one record and the next are reserved
/// (left unused), so the store's counter hands each record its own key. A record out of order,
/// or one the store merges into another on a uniqueness constraint, is an error.
struct SourceKeyOrder {
    private var nextKeys: [String: Int64] = [:]

    init() {}

    /// Reserves the keys of `root`'s hierarchy below `key` not yet used, before the record whose
    /// key is `key` is written; `source` names where it came from, for errors.
    mutating func reserve(_ key: Int64, root: String, graph: StoreGraphWriter, source: String) throws(PipelineError) {
        let next = nextKeys[root, default: 1]
        if key < next { throw .keyOutOfOrder(source: source, primaryKey: key) }
        if key > next {
            do { _ = try graph.writer.reservePrimaryKeys(root: root, count: Int(key - next)) } catch { throw .links(.store(error)) }
        }
    }

    /// Takes the outcome of writing the record whose key is `key`: it must have been inserted.
    mutating func written(_ outcome: StoreGraphWriter.Outcome, key: Int64, root: String, source: String) throws(PipelineError) {
        switch outcome {
        case .inserted: nextKeys[root] = key + 1
        case .merged: throw .keyCollides(source: source, primaryKey: key)
        case .rejected(let reason): throw .keyRejected(source: source, primaryKey: key, reason: reason)
        }
    }
}
