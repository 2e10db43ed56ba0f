/// The attributes of one element of a model file, in the order they are added: values only when
/// the model has one, flags only when set (as Xcode writes them: an absent flag means NO).
struct XMLAttributeList {
    private(set) var attributes: [(name: String, value: String)] = []

    /// Adds `name="value"` when there is a value.
    mutating func add(_ name: String, _ value: String?) {
        if let value { attributes.append((name, value)) }
    }

    /// Adds `name="YES"` when the flag is set.
    mutating func flag(_ name: String, _ isSet: Bool) {
        if isSet { attributes.append((name, "YES")) }
    }
}
