/// Hands out unique column names within one table: a name already taken gets the first free
/// numeric suffix (`ZTIMESTAMP`, `ZTIMESTAMP1`, …), as Core Data does after uppercasing.
struct ColumnNamer {
    private var taken: Set<String>

    init(reserved: [String]) {
        taken = Set(reserved)
    }

    mutating func claim(_ base: String) -> String {
        var candidate = base
        var suffix = 1
        while taken.contains(candidate) {
            candidate = base + String(suffix)
            suffix += 1
        }
        taken.insert(candidate)
        return candidate
    }
}

/// Names that reach SQL unquoted must be plain identifiers.
enum SQLName {
    /// Whether `name` is non-empty and made only of ASCII letters, digits and `_`.
    static func isPlain(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
    }

    /// `name` checked for SQL, or `StoreLayoutError.invalidName`.
    static func checked(_ name: String, entity: String) throws(StoreLayoutError) -> String {
        guard isPlain(name) else { throw .invalidName(entity: entity, name: name) }
        return name
    }

    /// `Z` + the uppercased property or entity name.
    static func prefixed(_ name: String, entity: String) throws(StoreLayoutError) -> String {
        "Z" + (try checked(name, entity: entity)).uppercased()
    }
}
