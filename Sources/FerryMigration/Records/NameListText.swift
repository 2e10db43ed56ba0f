/// Names listed in a message: all of them when they are few, else the first ones and how many
/// more, so that a header of thousands of columns makes one short line.
public enum NameListText {
    /// `a, b, c`; past `shown` names, the first `shown` and `and N more`.
    public static func summary(_ names: [String], shown: Int = 10) -> String {
        guard names.count > shown else { return names.joined(separator: ", ") }
        return names.prefix(shown).joined(separator: ", ") + " and \(names.count - shown) more"
    }
}
