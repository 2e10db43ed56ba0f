/// Turns table and column names into entity and property names a store layout accepts (ASCII
/// letters, digits and `_`, not starting with a digit), unique without regard to case, since
/// Core Data uppercases them into table and column names.
struct PlainNames {
    private var taken: Set<String> = []

    init(reserved: [String] = []) {
        taken = Set(reserved.map { $0.uppercased() })
    }

    /// The sanitized, unique form of `name`: other characters become `_`, a leading digit or an
    /// empty name gets `prefix` in front, and a name already taken gets a numeric suffix.
    mutating func claim(_ name: String, prefix: String) -> String {
        var base = String(decoding: name.utf8.map { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                ? byte : UInt8(ascii: "_")
        }, as: UTF8.self)
        if base.isEmpty || base.utf8.first.map({ $0 >= 0x30 && $0 <= 0x39 }) == true { base = prefix + base }
        var candidate = base
        var suffix = 1
        while taken.contains(candidate.uppercased()) {
            candidate = base + String(suffix)
            suffix += 1
        }
        taken.insert(candidate.uppercased())
        return candidate
    }
}
