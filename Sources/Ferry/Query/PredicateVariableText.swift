import FerryStore

/// Reads `--var NAME=VALUE` values: each is its text as written (`PredicateValue.text`), of the
/// type of the attribute the predicate compares it with. A String or URI attribute takes the text
/// itself (`Null`, `YES`, `42` and `'x'` included, quotes and all); a number, boolean, date or
/// UUID attribute reads it as one, and the predicate is refused when it does not read. nil is
/// written in the predicate (`== nil`), never given as a variable.
public enum PredicateVariableText {
    /// `NAME=VALUE` pairs as variables (a later name wins).
    public static func variables(_ pairs: [(key: String, value: String)]) -> [String: PredicateValue] {
        Dictionary(pairs.map { ($0.key, PredicateValue.text($0.value)) }, uniquingKeysWith: { _, last in last })
    }
}
