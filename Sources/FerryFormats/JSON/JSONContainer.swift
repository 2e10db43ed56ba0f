/// An array or object that ``JSONScanner/parseValue(depth:)`` has opened and not yet closed.
enum JSONContainer {
    case array([JSONValue])
    /// The members so far and the key of the member whose value is being read.
    case object([(key: String, value: JSONValue)], key: String)
}
