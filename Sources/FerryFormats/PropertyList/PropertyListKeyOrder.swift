/// Dictionary key order of the writers: by UTF-16 code units, as `CFStringCompare` without options
/// orders them, so output is deterministic and matches what Apple writes.
enum PropertyListKeyOrder {
    static func sorted(_ entries: [String: PropertyListValue]) -> [(key: String, value: PropertyListValue)] {
        entries.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }
    }
}
