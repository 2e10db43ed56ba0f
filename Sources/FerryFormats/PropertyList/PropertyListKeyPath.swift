/// Key paths for encoding errors: `/` is the root, `/Pets/0` the first element of `Pets`.
///
/// Writers build them only on failure, by prefixing each enclosing container's component while
/// the error unwinds, so the success path pays nothing.
extension PropertyListError {
    /// This error as seen from the container that holds the failing value under `component`.
    func nested(in component: String) -> PropertyListError {
        guard case .unencodable(let reason, let keyPath) = self else { return self }
        return .unencodable(reason: reason, keyPath: "/" + component + (keyPath == "/" ? "" : keyPath))
    }
}

/// Dictionary key order of the writers: by UTF-16 code units, as `CFStringCompare` without options
/// orders them, so output is deterministic and matches what Apple writes.
enum PropertyListKeyOrder {
    static func sorted(_ entries: [String: PropertyListValue]) -> [(key: String, value: PropertyListValue)] {
        entries.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
    }
}
