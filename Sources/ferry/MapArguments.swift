/// `--map` values: `KEY=ATTRIBUTE` names a column or key, `#N=ATTRIBUTE` the N-th column of a
/// CSV file (1-based), whatever its name (a blank one too).
///
/// Attribute names never hold `=`, so a value splits at its last `=`: a key may hold `=` itself
/// (`--map 'a=b=title'` maps the column `a=b`).
enum MapArguments {
    struct Maps {
        /// Key or column name → attribute.
        var names: [String: String] = [:]
        /// CSV column position → attribute.
        var columns: [Int: String] = [:]
    }

    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> Maps {
        var maps = Maps()
        for pair in arguments.values["map"] ?? [] {
            guard let equals = pair.lastIndex(of: "="), equals != pair.startIndex, pair.index(after: equals) != pair.endIndex else {
                throw UsageError("--map takes KEY=ATTRIBUTE or '#N=ATTRIBUTE' (a column by position), not '\(pair)'")
            }
            let key = String(pair[..<equals]), attribute = String(pair[pair.index(after: equals)...])
            if key.hasPrefix("#"), let position = Int(key.dropFirst()) {
                guard position > 0 else { throw UsageError("--map \(pair): columns are numbered from 1") }
                maps.columns[position] = attribute
            } else {
                maps.names[key] = attribute
            }
        }
        return maps
    }
}
