import FerryModel
import FerryPostgres

/// Hands out identifiers that are unique within one namespace (a schema's tables, a table's
/// columns) and fit PostgreSQL's 63 bytes: the wanted name when it is free and short enough,
/// else the name cut at a character boundary with `_2`, `_3`, … (or, when cut, a short digest of
/// the full name) so two long names never collide. The same requests in the same order always
/// give the same names, which is how a restore finds the columns an export made.
struct PostgresNamer {
    private var taken: Set<String> = []

    init(reserving names: [String] = []) {
        taken = Set(names)
    }

    mutating func claim(_ wanted: String) -> String {
        var candidate = fitted(wanted, suffix: "")
        var number = 2
        while taken.contains(candidate) {
            candidate = fitted(wanted, suffix: "_\(number)")
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }

    /// `name` + `suffix` within the length limit; a cut name ends with 8 hex digits of its digest.
    private func fitted(_ name: String, suffix: String) -> String {
        let limit = PostgresIdentifier.maxLength
        guard name.utf8.count + suffix.utf8.count > limit else { return name + suffix }
        let digest = Hex.string(Array(SHA256.hash(Array(name.utf8)).prefix(4)))
        let tail = "_" + digest + suffix
        var head = ""
        for character in name {
            guard head.utf8.count + String(character).utf8.count + tail.utf8.count <= limit else { break }
            head.append(character)
        }
        return head + tail
    }
}
