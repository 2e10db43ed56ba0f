/// How many distinct values the uniqueness checks of one inference may hold, all keys together.
///
/// Each key's `DistinctValues` draws from it; a key whose next value finds the budget spent gives
/// up (its values are dropped, the budget returned) and says so, so memory stays bounded however
/// large the input.
public final class DistinctValueBudget {
    /// The most values held at once.
    public let limit: Int
    /// The values held now.
    private(set) var used = 0

    public init(limit: Int) {
        self.limit = limit
    }

    /// Takes room for one value; false when none is left.
    func take() -> Bool {
        guard used < limit else { return false }
        used += 1
        return true
    }

    /// Returns the room of `count` values that were dropped.
    func give(back count: Int) {
        used -= count
    }
}
