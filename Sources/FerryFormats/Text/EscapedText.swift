/// Text shown on one line: the characters a caller names (control characters, invisible ones)
/// escaped as `\r`, `\n`, `\t` or `\u{1B}`, so that a value or key from a file can be told
/// apart and never breaks a line of output.
public enum EscapedText {
    /// `text` with each scalar that `escapes` escaped; `text` itself when it has none.
    public static func shown(_ text: String, escaping escapes: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        return text.unicodeScalars.reduce(into: "") { shown, scalar in
            switch scalar {
            case "\r": shown += "\\r"
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case _ where escapes(scalar): shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
    }
}
