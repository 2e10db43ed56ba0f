import FerryFormats

/// Names listed in a message: all of them when they are few, else the first ones and how many
/// more, so that a header of thousands of columns makes one short line. Characters a terminal
/// shows as nothing or acts on (a byte-order mark, a zero-width space, controls, spaces other
/// than U+0020) are written as `\u{FEFF}` (line breaks and tabs as `\r`, `\n`, `\t`), so that a
/// name that only looks like an attribute's says why it is not.
public enum NameListText {
    /// `a, b, c`; past `shown` names, the first `shown` and `and N more`.
    public static func summary(_ names: [String], shown: Int = 10) -> String {
        let visible = names.map(Self.visible)
        guard visible.count > shown else { return visible.joined(separator: ", ") }
        return visible.prefix(shown).joined(separator: ", ") + " and \(visible.count - shown) more"
    }

    /// `name` with its invisible characters escaped: one line, whatever it holds.
    static func visible(_ name: String) -> String {
        EscapedText.shown(name, escaping: isInvisible)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .format, .control, .lineSeparator, .paragraphSeparator: true
        case .spaceSeparator: scalar != " "
        default: false
        }
    }
}
