/// An object of a document (a JSON object, a property list's dictionary) that holds a key more
/// than once: a parser keeps one of the values, and which one the writer meant cannot be told, so
/// the record is a reject of its own rather than a value lost without a word. The rest of the
/// source is read on.
public enum RepeatedKeys {
    /// The reject of the record at `location` for `keys`, each held twice by one `container`.
    static func reject(keys: [String], at location: SourceLocation, entity: String, container: String) -> Reject {
        let named = keys.map { "\"\($0)\"" }.joined(separator: ", ")
        let subject = keys.count == 1 ? "key \(named) appears" : "keys \(named) appear"
        return Reject(location: location, entity: entity,
                      reason: "\(subject) more than once in one \(container): which value is meant cannot be told")
    }

    /// A key that an object of `value` (the record's own, or one nested in it at any depth) holds
    /// more than once: the record is a reject of the import, so `model infer` counts it as one no
    /// model can read.
    public static func first(in value: DocumentValue) -> String? {
        switch value {
        case .object(let members):
            if let repeated = first(among: members) { return repeated }
            for member in members { if let repeated = first(in: member.value) { return repeated } }
            return nil
        case .array(let elements):
            for element in elements { if let repeated = first(in: element) { return repeated } }
            return nil
        default:
            return nil
        }
    }

    /// The first key that one object's `members` hold a second time, if any.
    static func first(among members: [(key: String, value: DocumentValue)]) -> String? {
        var seen = Set<String>(minimumCapacity: members.count)
        for member in members where !seen.insert(member.key).inserted { return member.key }
        return nil
    }
}
