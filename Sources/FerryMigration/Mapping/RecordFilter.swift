import FerryStore

/// A source filter of an entity mapping: only records for which the predicate holds are carried.
/// The predicate uses the store query syntax (`isFinished == YES AND time > 1400000000`), over the
/// source record's attributes.
public struct RecordFilter: Sendable {
    public let predicate: FetchPredicate
    /// The text as written, for plans and messages.
    public let text: String

    public init(_ text: String) throws(FetchPredicateError) {
        predicate = try FetchPredicate(format: text)
        self.text = text
    }
}
