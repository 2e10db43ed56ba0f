import FerryFormats

/// The legacy file formats `ferry import` and `ferry migrate` read.
public enum SourceFormat: String, Sendable, CaseIterable {
    /// CSV with a header row (also `.tsv`).
    case csv
    /// A JSON document: an array of objects, one object, or records under a key (NDJSON too,
    /// when its content shows it).
    case json
    /// NDJSON / JSON Lines: one object per line, a malformed line being one reject.
    case ndjson
    /// An XML or binary property list: an array of dictionaries.
    case plist

    /// The format's name in messages.
    public var name: String {
        switch self {
        case .csv: "CSV"
        case .json: "JSON"
        case .ndjson: "NDJSON"
        case .plist: "property list"
        }
    }

    /// The format of a source whose content is `content`: the one the content says; where it
    /// leaves a choice (an object that may be the only record or the first NDJSON line; text that
    /// is CSV or a broken file of another format), the one the file's name says among those it
    /// allows; else JSON for an object and CSV for text. A `given` format (`--format`) is taken
    /// when the content allows it. `--format csv` is taken for any text: a CSV whose first field
    /// begins with `[`, `{` or `<` looks like JSON or XML only to a guess, and the user knows
    /// better; only a binary property list's bytes are not text.
    /// - Throws: ``SourceFormatError`` for an empty source or one whose content is not `given`.
    public static func decide(content: SourceContent, path: String, given: SourceFormat?) throws(SourceFormatError) -> SourceFormat {
        guard content != .empty else { throw .empty }
        guard content != .sqliteDatabase else { throw .database }
        let possible = content.possibleFormats
        if let given {
            let isText = content != .binaryPropertyList
            guard possible.contains(given) || (given == .csv && isText) else { throw .contradicts(given: given, content: content) }
            return given
        }
        if let decided = content.format { return decided }
        if let named = named(path: path), possible.contains(named) { return named }
        return possible[0]
    }

    /// The format a path's name says (a trailing `.gz` ignored); nil when it says none.
    public static func named(path: String) -> SourceFormat? {
        var name = path.lowercased()
        if name.hasSuffix(".gz") { name.removeLast(3) }
        let suffixes: [(String, SourceFormat)] = [(".csv", .csv), (".tsv", .csv), (".txt", .csv), (".json", .json), (".ndjson", .ndjson),
                                                  (".jsonl", .ndjson), (".plist", .plist)]
        return suffixes.first { name.hasSuffix($0.0) }?.1
    }

    /// The format a path's name or first bytes say, when either says one: nil for a file that
    /// would be CSV only for want of another format (a store, say), or one that cannot be read.
    public static func recognize(path: String) -> SourceFormat? {
        if let named = named(path: path) { return named }
        guard path != "-", let source = try? GzipDetectingByteSource(path: path),
              let sampled = try? SampledByteSource(source, count: SourceContent.sampleSize) else { return nil }
        return SourceContent.sniff(sampled.sample, isComplete: sampled.sampleIsComplete).format
    }
}

/// Why a source's format cannot be decided.
public enum SourceFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No bytes, or only whitespace: a source that holds no records still says what it is.
    case empty
    /// `--format` names a format the content is not.
    case contradicts(given: SourceFormat, content: SourceContent)
    /// An SQLite database: its bytes read as CSV (`--map '#1=…'`) made records of page bytes.
    case database

    public var description: String {
        switch self {
        case .empty:
            "is empty (no bytes, or only whitespace): a source without records still needs its form, "
                + "a header row for CSV, [] for JSON"
        case let .contradicts(given, content):
            "holds \(content), not \(given.name) as --format \(given.rawValue) says"
        case .database:
            "is an SQLite database, not a file of records: a Core Data store is a source of `ferry migrate STORE` "
                + "(and of query, export and backup); tables of other databases are not read as records"
        }
    }
}
