/// A string as a predicate format literal: in double quotes, with `\` and `"` escaped by a
/// backslash and every other character as it is, which Ferry's predicate parsers (the query
/// language's, the archive writer's) and `NSPredicate`'s read back as the same string.
enum PredicateStringLiteral {
    /// `text` as a literal.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    /// The string a whole literal `quoted(_:)` makes stands for; nil for any other text (an
    /// unescaped `"` inside, or an escape of another character).
    static func unquoted(_ literal: Substring) -> String? {
        let scalars = literal.unicodeScalars
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return nil }
        var text = String.UnicodeScalarView(), escaped = false
        for scalar in scalars.dropFirst().dropLast() {
            if escaped {
                guard scalar == "\\" || scalar == "\"" else { return nil }
                text.append(scalar)
                escaped = false
            } else if scalar == "\\" {
                escaped = true
            } else if scalar == "\"" {
                return nil
            } else {
                text.append(scalar)
            }
        }
        return escaped ? nil : String(text)
    }
}
