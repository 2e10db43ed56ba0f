/// `NAME=VALUE` values of a repeatable option (`--var`, `--link`, `--set`).
enum Pairs {
    /// The pairs in the order given. A name given twice with two values is refused: one of them
    /// would be ignored without a word (the same pair twice, as a wrapper script's default and
    /// its caller may give it, counts once). An empty value is taken only where `emptyValues`
    /// allows it (`--set note=` sets an empty string).
    static func list(_ arguments: ParsedArguments, _ option: String, emptyValues: Bool = false) throws(UsageError) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        for text in arguments.values[option] ?? [] {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
                  emptyValues || text.index(after: equals) != text.endIndex else {
                throw UsageError("--\(option) takes NAME=VALUE, not '\(text)'")
            }
            let pair = (key: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
            if let earlier = result.first(where: { $0.key == pair.key }) {
                guard earlier.value == pair.value else {
                    throw UsageError("--\(option) gives \(pair.key) twice ('\(earlier.value)' and '\(pair.value)'): give it once")
                }
                continue
            }
            result.append(pair)
        }
        return result
    }

    /// The pairs by name.
    static func parse(_ arguments: ParsedArguments, _ option: String) throws(UsageError) -> [String: String] {
        Dictionary(uniqueKeysWithValues: try list(arguments, option).map { ($0.key, $0.value) })
    }
}
