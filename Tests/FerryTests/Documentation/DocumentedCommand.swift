import Foundation

/// One command a document shows, as a user would type it: continued lines (`\` at the end)
/// joined, the comment after `#` (outside quotes) taken apart.
struct DocumentedCommand: CustomStringConvertible {
    /// The command without its comment.
    let text: String
    /// The comment after it, without the `#` (empty when there is none).
    let comment: String
    /// Where the document shows it (`README.md:42`, `ferry plan --help`), for messages.
    let place: String

    var description: String { "\(place): \(text)" }

    /// The commands of consecutive lines; `place` names the first line's place and `firstLine`
    /// its number (nil for text without line numbers).
    static func commands(in lines: [Substring], place: String, firstLine: Int?) -> [DocumentedCommand] {
        var commands: [DocumentedCommand] = []
        var pending = ""
        var start = firstLine
        for (offset, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if pending.isEmpty { start = firstLine.map { $0 + offset } }
            if trimmed.hasSuffix("\\") {
                pending += trimmed.dropLast().trimmingCharacters(in: .whitespaces) + " "
                continue
            }
            let whole = pending + trimmed
            pending = ""
            let (text, comment) = splitComment(whole)
            guard !text.isEmpty else { continue }
            commands.append(DocumentedCommand(text: text, comment: comment, place: start.map { "\(place):\($0)" } ?? place))
        }
        return commands
    }

    /// The part before the first `|` outside quotes (the whole command when it has none).
    var firstStage: String {
        guard let bar = Self.unquotedIndex(of: "|", in: text) else { return text }
        return String(text[..<bar]).trimmingCharacters(in: .whitespaces)
    }

    /// Whether it runs the toolchain itself (`swift test`, `swift build …`) rather than `ferry`.
    var runsToolchain: Bool { text.hasPrefix("swift ") && !text.hasPrefix("swift run ferry ") }

    /// The command as `sh` runs it with the built `ferry` first on the `PATH`.
    var shellText: String {
        text.hasPrefix("swift run ferry ") ? String(text.dropFirst("swift run ".count)) : text
    }

    /// The requirements the comment names: each `needs X`, up to the next `;`, `,` or `)`.
    var requirements: [String] {
        comment.components(separatedBy: "needs ").dropFirst().map { part in
            String(part.prefix { $0 != ";" && $0 != "," && $0 != ")" }).trimmingCharacters(in: .whitespaces)
        }
    }

    private static func splitComment(_ line: String) -> (String, String) {
        guard let hash = unquotedIndex(of: "#", in: line, afterSpace: true) else { return (line, "") }
        return (String(line[..<hash]).trimmingCharacters(in: .whitespaces), String(line[line.index(after: hash)...]).trimmingCharacters(in: .whitespaces))
    }

    /// The first `target` outside single and double quotes (with `afterSpace`, only one that
    /// starts a word, as `sh` reads a comment).
    private static func unquotedIndex(of target: Character, in text: String, afterSpace: Bool = false) -> String.Index? {
        var quote: Character?
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == target, !afterSpace || previous == " " || previous == "\t" {
                return index
            }
            previous = character
        }
        return nil
    }
}
