/// A source key that matches several attributes by the same rule of `PropertyKeyMatcher` (a
/// header `FILENAME` for attributes `fileName` and `filename`): reading it into one of them
/// would be a guess, so the source is refused.
public struct AmbiguousKey: Error, Equatable {
    public let key: String
    /// The attributes it matches, in the entity's order.
    public let attributes: [String]
    /// How it matches them: `ignoring case`, `by renaming identifier`, …
    public let rule: String

    /// What is wrong and how to say which attribute is meant.
    public var reason: String {
        "'\(key)' matches attributes \(attributes.map { "'\($0)'" }.joined(separator: " and ")) alike (\(rule)): "
            + "name its attribute with --map KEY=ATTRIBUTE"
    }
}
