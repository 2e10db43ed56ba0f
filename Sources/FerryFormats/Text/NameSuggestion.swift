/// "Did you mean …?" for a name that is not one of the known ones: a verb, an option, an entity,
/// a model version. A known name is suggested when it is within two edits of the given one
/// (Damerau–Levenshtein, optimal string alignment: insert, delete, replace, swap two neighbours;
/// letter case ignored), when it starts with the given one, or ends with it as its last word (`2`
/// for `Workspace 2`, `ms` for `unix-ms`); the closest wins, then the first. A name that differs only in letter case
/// is the closest of all (`task` finds `Task`, not `Tag`). A name that differs only in its digits
/// is no suggestion: `Workspace 9` is not a misspelt `Workspace 1`, numbers name other things.
public enum NameSuggestion {
    /// The most edits a suggestion may be away from the given name.
    public static let maxDistance = 2

    /// The known name closest to `given`, or nil when none is close.
    public static func closest(to given: String, among known: some Sequence<String>) -> String? {
        let target = Array(given.lowercased())
        guard !target.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for name in known {
            guard name != given else { continue }
            let candidate = Array(name.lowercased())
            guard !differsInDigitsOnly(target, candidate) else { continue }
            // A prefix, or the last word, is as good as one edit: `--mod` for `--model`, `imp` for
            // `import`, `2` for `Workspace 2`, `ms` for `unix-ms`.
            let affix = candidate.starts(with: target) || [" ", "-", "_"].contains { candidate.reversed().starts(with: target.reversed() + [$0]) }
            let distance = candidate == target ? 0 : affix ? 1 : editDistance(target, candidate, limit: maxDistance)
            guard distance <= maxDistance, distance < target.count || affix else { continue }
            if distance < best?.distance ?? Int.max { best = (name, distance) }
        }
        return best?.name
    }

    /// Whether two names differ, and only in their numbers: the same text around runs of digits
    /// (`Workspace 9`, `Workspace 1`, `Workspace 10`).
    static func differsInDigitsOnly(_ a: [Character], _ b: [Character]) -> Bool {
        guard a != b else { return false }
        /// The text with each run of digits as one `#`.
        func skeleton(_ name: [Character]) -> [Character] {
            var result: [Character] = []
            for character in name where !(character.isNumber && result.last == "#") { result.append(character.isNumber ? "#" : character) }
            return result
        }
        return a.contains(where: \.isNumber) && skeleton(a) == skeleton(b)
    }

    /// ` (did you mean 'X'?)` when some known name is close to `given`, else the empty text.
    public static func hint(for given: String, among known: some Sequence<String>, quote: (String) -> String = { "'\($0)'" }) -> String {
        closest(to: given, among: known).map { " (did you mean \(quote($0))?)" } ?? ""
    }

    /// The optimal-string-alignment distance of `a` and `b`, or `limit + 1` once it exceeds `limit`.
    static func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, beforePrevious[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
