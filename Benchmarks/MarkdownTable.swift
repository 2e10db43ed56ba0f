/// A table as Markdown text with padded columns, as the reports print them.
struct MarkdownTable {
    let header: [String]
    let rows: [[String]]

    /// The header, the rule and every row, each line ending in a newline.
    var text: String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: " | ") + " |\n"
        }
        return line(header) + "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|\n"
            + rows.map(line).joined()
    }
}
