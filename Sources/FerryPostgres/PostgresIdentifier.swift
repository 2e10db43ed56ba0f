/// SQL identifiers, always quoted: `"Task"`, `"my ""odd"" name"`. Names from models and options
/// go into SQL only this way; values never do (they are parameters or COPY data).
public enum PostgresIdentifier {
    /// PostgreSQL keeps at most 63 bytes of an identifier (`NAMEDATALEN - 1`) and cuts longer ones.
    public static let maxLength = 63

    public static func quoted(_ name: String) -> String {
        "\"" + name.replacing("\"", with: "\"\"") + "\""
    }

    /// `"schema"."name"`.
    public static func qualified(_ schema: String, _ name: String) -> String {
        quoted(schema) + "." + quoted(name)
    }

    /// Quoted names joined by `, `.
    public static func list(_ names: [String]) -> String {
        names.map(quoted).joined(separator: ", ")
    }
}
