/// The `Z_PK` counter of one root entity's hierarchy (sub-entities share their root's), held by
/// the writer and by every inserter of the hierarchy, so a row costs no lookup by name.
///
/// Used by the writer's thread alone: its fields, touched for every row, skip the run-time
/// exclusivity checks (`@exclusivity(unchecked)`).
final class PrimaryKeyCounter {
    /// The root entity.
    let root: String
    /// The highest `Z_PK` handed out so far (`Z_MAX`).
    @exclusivity(unchecked) private(set) var last: Int64
    /// Whether `last` moved since the last commit wrote it to `Z_PRIMARYKEY`.
    @exclusivity(unchecked) private(set) var isChanged = false

    init(root: String, last: Int64 = 0) {
        self.root = root
        self.last = last
    }

    /// The next key, without handing it out.
    /// - Throws: `primaryKeysExhausted` once the largest key is handed out.
    func next() throws(StoreWriterError) -> Int64 {
        guard last < .max else { throw .primaryKeysExhausted(root: root) }
        return last + 1
    }

    /// Hands out keys up to `key` (to be written to `Z_MAX` with the next commit).
    func advance(to key: Int64) {
        last = key
        isChanged = true
    }

    /// `last` is in the store.
    func markWritten() { isChanged = false }
}
