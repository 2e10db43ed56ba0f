/// Text columns, each as wide as its widest cell on a terminal (`DisplayWidth`: a Chinese
/// character takes two columns, a combining accent none), two spaces apart, trailing spaces
/// trimmed. Cells are left-aligned, or right-aligned in `rightAligned` columns (numbers). A
/// control character in a cell (a model's regular expression, a value from a file) is shown
/// escaped (`\n`, `\t`, `\r`, `\u{1B}`) so that every row stays one line.
public enum TextTable {
    /// The rows as lines, each ending in a newline; `indent` starts every line.
    public static func render(_ rows: [[String]], indent: String = "", rightAligned: Set<Int> = []) -> String {
        lines(rows, indent: indent, rightAligned: rightAligned).map { $0 + "\n" }.joined()
    }

    /// The rows as lines, without newlines.
    public static func lines(_ rows: [[String]], indent: String = "", rightAligned: Set<Int> = []) -> [String] {
        let rows = rows.map { $0.map(visible) }
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        return rows.map { row in
            var line = indent + row.enumerated().map { index, cell in
                let padding = DisplayWidth.padding(cell, to: widths[index])
                return rightAligned.contains(index) ? padding + cell : cell + padding
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// `cell` with its control characters escaped; itself when it has none.
    static func visible(_ cell: String) -> String {
        EscapedText.shown(cell, escaping: isControl)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }
}
