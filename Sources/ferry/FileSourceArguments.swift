import Ferry
import FerryFormats
import FerryMigration

/// How `import` and `migrate` read legacy files, from the options they share: `--map`, `--link`,
/// `--records-key`, `--absent` and the CSV options.
enum FileSourceArguments {
    /// The file options of `import` and `migrate`, on top of the CSV ones.
    static func options(files: String) -> [OptionSpec] {
        [
            OptionSpec(name: "link", value: "REL=ATTRIBUTE", help: "values of relationship REL in \(files) match this destination attribute",
                       repeatable: true),
            OptionSpec(name: "map", value: "KEY=ATTRIBUTE",
                       help: "map a column or key of \(files) to an attribute; '#N=ATTRIBUTE' maps the N-th CSV column",
                       repeatable: true),
            OptionSpec(name: "records-key", value: "KEY[.KEY]",
                       help: "read the records of each JSON source from the array under this key of the top object ({\"tasks\": […]}); a.b goes deeper"),
            .choice("absent", AbsentKeyRule.self, "what an attribute gets when a record of \(files) has no key or column for it "
                        + "(default: the model's default, counted in the summary; Ferry's exports, whose records carry Z_PK, read as null)"),
            .integer("max-value-bytes", "N", 1...ValueSizeLimit.defaultMaxBytes,
                     "the most bytes one value of \(files) may hold as written (a JSON string's quotes and escapes count; the default, 512 MiB, "
                        + "is also the most); a CSV row or JSON record (NDJSON line, array element) with a larger one is rejected"),
        ] + CSVOptionArguments.options
    }

    /// The maps, links and CSV options given; format and value rules are left at their defaults.
    static func parse(_ arguments: ParsedArguments) throws(UsageError) -> FileRecordSource {
        let maps = try MapArguments.parse(arguments)
        var files = FileRecordSource(csv: try CSVOptionArguments.parse(arguments), keyMap: maps.names,
                                     linkAttributes: try Pairs.parse(arguments, "link"))
        files.csv.columnMap = maps.columns
        if let text = arguments.value("records-key") {
            let keys = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !keys.contains(where: \.isEmpty) else { throw UsageError("--records-key takes KEY or KEY.KEY…, not '\(text)'") }
            files.jsonRecordsKeyPath = keys
        }
        files.maxValueBytes = try arguments.integer("max-value-bytes") ?? ValueSizeLimit.defaultMaxBytes
        if let rule = try arguments.choice("absent", as: AbsentKeyRule.self) { files.coercion.absentKey = rule }
        return files
    }
}
