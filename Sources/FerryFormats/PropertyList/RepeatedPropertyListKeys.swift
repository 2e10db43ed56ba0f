/// Keys that dictionaries of a property list held more than once, each once, in the order they
/// were met. The last value of such a key is the one kept, as Apple's reader keeps it; the
/// readers note the keys so that a record that would lose a value is refused (as JSON's are).
public struct RepeatedPropertyListKeys: Sendable, Equatable {
    public private(set) var keys: [String] = []

    public init() {}

    /// Notes that a dictionary held `key` more than once.
    mutating func note(_ key: String) {
        if !keys.contains(key) { keys.append(key) }
    }
}
