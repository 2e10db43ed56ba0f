import Ferry
import FerryFormats

/// The CSV options `import` and `migrate` (and so `plan` and `verify --against`) share, and how
/// they become a `CSVOptions`.
enum CSVOptionArguments {
    static let options: [OptionSpec] = [
        OptionSpec(name: "delimiter", value: "C", help: "CSV delimiter, e.g. ';' or 'tab' (default: tab for .tsv, else sniffed)"),
        OptionSpec(name: "comment", value: "C", help: "skip CSV lines starting with C, e.g. '#' (counted as skipped)"),
        .choice("encoding", ["utf8", "latin1"],
                "CSV text: utf8 (default), or latin1: the whole file read as Windows-1252, as browsers read Latin-1 (smart quotes, €)"),
        .integer("max-columns", "N", 1...Int.max,
                 "the most columns a CSV row may have (default \(CSVOptions.defaultMaxColumns)); a wider row stops the run"),
        .choice("csv-quotes", ["strict", "lenient"],
                "strict (default): a CSV field with text after its closing quote (\"a\"x) or a quote inside (a\"b) rejects its row; "
                    + "lenient reads them as written"),
    ]

    /// The CSV options given; columns by position come from `--map` (`MapArguments`).
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> CSVOptions {
        var options = CSVOptions()
        if let text = arguments.value("delimiter") {
            options.delimiter = try character(text == "tab" || text == "\\t" ? "\t" : text, option: "delimiter")
        }
        if let text = arguments.value("comment") {
            let comment = try character(text, option: "comment")
            if comment == options.delimiter { throw UsageError("--comment and --delimiter must differ") }
            // A comment byte that is the delimiter makes every row whose first field is empty a comment.
            if options.delimiter == nil, CSVDialect.sniffedDelimiters.contains(comment) {
                throw UsageError("--comment '\(text)' could be the delimiter (tab for .tsv, else sniffed among , ; tab | :): "
                    + "give --delimiter too")
            }
            options.comment = comment
        }
        if arguments.value("encoding") == "latin1" { options.textPolicy = .windows1252 }
        if let limit = try arguments.integer("max-columns") { options.maxColumns = limit }
        if let text = arguments.value("csv-quotes"), let rule = CSVQuoteRule(rawValue: text) { options.quoteRule = rule }
        return options
    }

    /// One ASCII character that can separate fields or start lines: not a quote or a line break.
    private static func character(_ text: String, option: String) throws(UsageError) -> UInt8 {
        guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80, !"\"\n\r".utf8.contains(byte) else {
            throw UsageError("--\(option) takes one ASCII character other than '\"' and line breaks, not '\(text)'")
        }
        return byte
    }
}
