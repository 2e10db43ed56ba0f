/// A JSON value, as RFC 8259 defines it.
///
/// Objects keep their members in input order as `(key, value)` pairs, including duplicate keys:
/// nothing the input held is dropped while reading. Where a single value per key is needed,
/// ``subscript(_:)`` (and record decoding built on it) takes the **last** member with that key,
/// as most JSON parsers do. Keys compare as Swift strings, that is by canonical equivalence: a key
/// in NFC and the same key in NFD are both kept as written, but the lookup treats them as equal.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// The value of the last member named `key` when this is an object; `nil` otherwise.
    public subscript(_ key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The element at `index` when this is an array and the index is in range; `nil` otherwise.
    public subscript(_ index: Int) -> JSONValue? {
        guard case let .array(elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}
