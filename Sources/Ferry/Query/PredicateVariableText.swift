import FerryStore

/// Reads `--var NAME=VALUE` values: `nil`/`NULL`, `YES`/`NO`/`TRUE`/`FALSE`, integers and
/// decimal numbers take their type; anything else (or anything in single or double quotes) is a string.
public enum PredicateVariableText {
    /// `NAME=VALUE` pairs as variables (a later name wins).
    public static func variables(_ pairs: [(key: String, value: String)]) -> [String: PredicateValue] {
        Dictionary(pairs.map { ($0.key, value($0.value)) }, uniquingKeysWith: { _, last in last })
    }

    public static func value(_ text: String) -> PredicateValue {
        if text.count >= 2, let first = text.first, first == "'" || first == "\"", text.last == first {
            return .string(String(text.dropFirst().dropLast()))
        }
        switch text.uppercased() {
        case "NIL", "NULL": return .null
        case "YES", "TRUE": return .bool(true)
        case "NO", "FALSE": return .bool(false)
        default: break
        }
        if let number = Int64(text) { return .integer(number) }
        if text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || $0 == 46 || $0 == 45 || $0 == 101 || $0 == 69 || $0 == 43 }),
           let number = Double(text), number.isFinite { return .real(number) }
        return .string(text)
    }
}
