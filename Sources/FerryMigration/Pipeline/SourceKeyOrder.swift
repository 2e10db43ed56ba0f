/// Gives records the `Z_PK` their source gives them (a restore): the records of each entity
/// hierarchy come in `Z_PK` order, and the keys between one record and the next are reserved
/// (left unused), so the store's counter hands each record its own key. A record out of order,
/// or one the store merges into another on a uniqueness constraint, is an error; a rejected one
/// is a reject.
struct SourceKeyOrder {
    /// The last key written per root entity (none: 0).
    private var lastKeys: [String: Int64] = [:]

    init() {}

    /// Reserves the keys of `root`'s hierarchy below `key` not yet used, before the record whose
    /// key is `key` is written; `source` names where it came from, for errors.
    mutating func reserve(_ key: Int64, root: String, graph: StoreGraphWriter, source: String) throws(PipelineError) {
        let last = lastKeys[root, default: 0]
        if key <= last { throw .keyOutOfOrder(source: source, primaryKey: key) }
        // `key > last`: the keys between them, `key - last - 1` of them, are not used.
        if key - last > 1 {
            do { _ = try graph.writer.reservePrimaryKeys(root: root, count: Int(key - last - 1)) } catch { throw .links(.store(error)) }
        }
    }

    /// Takes the outcome of writing the record whose key is `key`: inserted, or rejected (a
    /// required relationship without a destination, a value no store keeps), the record then
    /// counted and said as any reject is, and its key left unused (the next record's
    /// reservation covers it).
    mutating func written(_ outcome: StoreGraphWriter.Outcome, key: Int64, root: String, source: String) throws(PipelineError) {
        switch outcome {
        case .inserted: lastKeys[root] = key
        case .merged: throw .keyCollides(source: source, primaryKey: key)
        case .rejected: break
        }
    }
}
