/// What happens to a record that collides with an earlier one on a uniqueness constraint (the
/// same input, or a record already in the store).
public enum DuplicatePolicy: String, Sendable, CaseIterable, Codable {
    /// Keep the record that was there first; the newcomer is merged into it (its links join the
    /// kept record) and counted as merged.
    case keepFirst = "keep-first"
    /// Keep the newest: the newcomer's values replace the earlier record's, links join; counted
    /// as merged. Newest means read last: sources in the order given, records in source order.
    case keepNewest = "keep-newest"
    /// Reject the newcomer with the constraint it breaks.
    case reject

    /// The policy as a written mapping's `unique` line gives it: `keep first`, `keep newest`, `reject`.
    public var writtenForm: String {
        switch self {
        case .keepFirst: "keep first"
        case .keepNewest: "keep newest"
        case .reject: "reject"
        }
    }
}
