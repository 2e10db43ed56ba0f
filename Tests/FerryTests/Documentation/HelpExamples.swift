import Foundation

/// The commands after `example:` or `examples:` in a verb's `--help`, up to the next empty line.
enum HelpExamples {
    static func commands(in help: String, verb: String) -> [DocumentedCommand] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        let heading = { (line: Substring) in ["example:", "examples:"].contains { line.trimmingCharacters(in: .whitespaces).hasPrefix($0) } }
        guard let start = lines.firstIndex(where: heading) else { return [] }
        var example = lines[start].drop { $0 != ":" }.dropFirst()
        example = example.drop { $0 == " " }
        var block: [Substring] = example.isEmpty ? [] : [example]
        for line in lines[(start + 1)...] {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { break }
            block.append(line)
        }
        return DocumentedCommand.commands(in: block, place: "ferry \(verb) --help", firstLine: nil)
    }
}
