import FerryFormats

/// How CSV sources are read, beyond what is sniffed: shared by import and migrate (and so by
/// plan and `verify --against`). Other formats ignore these options.
public struct CSVOptions: Sendable, Equatable {
    /// The default of `maxColumns`.
    public static let defaultMaxColumns = CSVReader.defaultMaxFields

    /// The field separator; nil means tab for a `.tsv` file, else sniffed (`CSVDialect.sniff`).
    public var delimiter: UInt8?
    /// Lines starting with this byte are skipped (and counted as skipped); nil: no comments. It
    /// must not be the delimiter: every row whose first field is empty would be skipped.
    public var comment: UInt8?
    /// How fields are decoded: as UTF-8 (a field that is not rejects its record), or all as
    /// Windows-1252 (`--encoding latin1`).
    public var textPolicy: CSVTextPolicy
    /// The most columns a row may have; a wider row stops the run with its file and line.
    public var maxColumns: Int
    /// Column position (1-based) → attribute name: names any column, even one without a name.
    public var columnMap: [Int: String]
    /// Whether a field with text after its closing quote rejects its row or reads joined.
    public var quoteRule: CSVQuoteRule

    public init(delimiter: UInt8? = nil, comment: UInt8? = nil, textPolicy: CSVTextPolicy = .strictUTF8,
                maxColumns: Int = CSVOptions.defaultMaxColumns, columnMap: [Int: String] = [:], quoteRule: CSVQuoteRule = .strict) {
        self.delimiter = delimiter
        self.comment = comment
        self.textPolicy = textPolicy
        self.maxColumns = maxColumns
        self.columnMap = columnMap
        self.quoteRule = quoteRule
    }
}
