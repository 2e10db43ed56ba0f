import Ferry
import FerryMigration

/// The options that say how files are read into values, shared by `import` and `model infer`:
/// the format, the empty-field rule and the epoch of numeric dates.
enum ValueRuleArguments {
    static let options = [
        OptionSpec(name: "format", value: "F", help: "csv, json or plist (default: from the file name or its first bytes)"),
        OptionSpec(name: "empty", value: "POLICY", help: "empty fields: null-unless-quoted (default), null, empty"),
        OptionSpec(name: "date-epoch", value: "EPOCH", help: "numbers in Date columns: unix (default), unix-ms, reference"),
    ]

    /// Sets the format and value rules given into `files`.
    static func parse(_ arguments: ParsedArguments, into files: inout FileRecordSource) throws(UsageError) {
        if let text = arguments.value("format") {
            guard let format = SourceFormat(rawValue: text) else { throw UsageError("--format takes csv, json or plist") }
            files.format = format
        }
        if let text = arguments.value("empty") {
            guard let policy = CoercionOptions.EmptyField(rawValue: text) else {
                throw UsageError("--empty takes null-unless-quoted, null or empty")
            }
            files.coercion.emptyField = policy
        }
        if let text = arguments.value("date-epoch") {
            guard let epoch = CoercionOptions.NumericDateEpoch(rawValue: text) else {
                throw UsageError("--date-epoch takes unix, unix-ms or reference")
            }
            files.coercion.numericDateEpoch = epoch
        }
    }
}
