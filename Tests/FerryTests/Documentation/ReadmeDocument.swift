import Foundation

/// What README.md shows a user to run, in order: the commands of its ```sh blocks, and the
/// ```output blocks that show what the command before them prints.
struct ReadmeDocument {
    enum Item {
        case command(DocumentedCommand)
        /// The exact standard output of the last command before it, and where it is.
        case output(String, place: String)
    }

    let items: [Item]
    /// The verbs the table under "## Verbs" lists (the first word of each row's first cell).
    let tabledVerbs: Set<String>

    init(text: String, name: String = "README.md") {
        var items: [Item] = []
        var verbs: Set<String> = []
        var block: (language: String, start: Int, lines: [Substring])?
        var inVerbs = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if line.hasPrefix("```") {
                if let open = block {
                    if open.language == "sh" {
                        items += DocumentedCommand.commands(in: open.lines, place: name, firstLine: open.start).map(Item.command)
                    } else if open.language == "output" {
                        items.append(.output(open.lines.map { $0 + "\n" }.joined(), place: "\(name):\(open.start - 1)"))
                    }
                    block = nil
                } else {
                    block = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), number + 1, [])
                }
                continue
            }
            if block != nil {
                block?.lines.append(line)
                continue
            }
            if line.hasPrefix("## ") { inVerbs = line == "## Verbs" }
            if inVerbs, line.hasPrefix("| `"), let verb = line.dropFirst(3).split(whereSeparator: { $0 == " " || $0 == "`" }).first {
                verbs.insert(String(verb))
            }
        }
        self.items = items
        tabledVerbs = verbs
    }
}
