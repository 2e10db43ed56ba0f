/// Counts the objects one walk of a keyed archive visits. Objects shared through UIDs are visited
/// once per reference, so without a bound a chain of collections that each list the next twice
/// makes a small archive expand exponentially (in time, and in the value or text built from it).
struct ArchiveWalkBudget {
    let limit: Int
    private var visited = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one more object, reached at `keyPath`; fails once the limit is passed.
    mutating func visit(keyPath: String) throws(KeyedArchiveError) {
        visited += 1
        guard visited <= limit else { throw .tooManyObjects(limit: limit, keyPath: keyPath) }
    }
}
