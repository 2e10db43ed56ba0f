import Ferry
import FerryMigration

/// The options that say how files are read into values, shared by `import` and `model infer`:
/// the format, the empty-field rule and the epoch of numeric dates.
enum ValueRuleArguments {
    static let options: [OptionSpec] = [
        .choice("format", SourceFormat.self, "the files' format (default: from the content; it must agree)"),
        .choice("empty", CoercionOptions.EmptyField.self, "empty fields (default null-unless-quoted)"),
        .choice("date-epoch", CoercionOptions.NumericDateEpoch.self, "numbers in Date columns (default unix)"),
    ]

    /// Sets the format and value rules given into `files`.
    static func parse(_ arguments: ParsedArguments, into files: inout FileRecordSource) throws(UsageError) {
        if let format = try arguments.choice("format", as: SourceFormat.self) { files.format = format }
        if let policy = try arguments.choice("empty", as: CoercionOptions.EmptyField.self) { files.coercion.emptyField = policy }
        if let epoch = try arguments.choice("date-epoch", as: CoercionOptions.NumericDateEpoch.self) { files.coercion.numericDateEpoch = epoch }
    }
}
