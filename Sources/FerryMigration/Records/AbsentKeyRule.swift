/// What an attribute gets when a file's record has no key (or CSV column) for it: `--absent`.
public enum AbsentKeyRule: String, Sendable, CaseIterable {
    /// The model's default value, as Core Data gives a new object (an attribute without one stays
    /// empty): the default. Each such value is counted and reported (`AbsentDefault`).
    case modelDefault = "default"
    /// Nothing: an optional attribute stays empty. A required one still takes its default (it
    /// cannot be empty), reported the same way.
    case null
}
