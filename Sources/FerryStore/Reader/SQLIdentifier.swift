/// Quotes names read from a database (table and column names may be anything) for SQL text.
public enum SQLIdentifier {
    /// `"name"`, with embedded double quotes doubled.
    public static func quoted(_ name: String) -> String {
        var result = "\""
        for character in name.unicodeScalars {
            if character == "\"" { result += "\"\"" } else { result.unicodeScalars.append(character) }
        }
        return result + "\""
    }

    /// Quoted names joined by `, `.
    static func list(_ names: [String]) -> String {
        names.map(quoted).joined(separator: ", ")
    }
}
