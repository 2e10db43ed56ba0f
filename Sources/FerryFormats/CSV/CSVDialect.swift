/// How a CSV file is written: separator, quoting, header, comments.
///
/// Fields are never trimmed: spaces around a delimiter belong to the field.
public struct CSVDialect: Sendable, Hashable {
    /// The field separator, e.g. `,` `;` `\t` `|` `:`.
    public var delimiter: UInt8
    /// The quote that encloses fields holding delimiters, quotes or line breaks. Inside a quoted
    /// field a doubled quote stands for one quote.
    public var quote: UInt8
    /// An escape byte inside quoted fields (e.g. `\`): the byte after it is taken literally.
    /// `nil` (the RFC 4180 default) means only doubled quotes escape.
    public var escape: UInt8?
    /// Whether the first row names the columns.
    public var hasHeader: Bool
    /// Lines that start with this byte are skipped (e.g. `#`); `nil` means no comments.
    public var comment: UInt8?
    /// Whether a quote that breaks RFC 4180 (`"ab"cd`, `a"b`) breaks the row or is read as written.
    public var quoteRule: CSVQuoteRule

    public init(
        delimiter: UInt8 = UInt8(ascii: ","),
        quote: UInt8 = UInt8(ascii: "\""),
        escape: UInt8? = nil,
        hasHeader: Bool = true,
        comment: UInt8? = nil,
        quoteRule: CSVQuoteRule = .strict
    ) {
        self.delimiter = delimiter
        self.quote = quote
        self.escape = escape
        self.hasHeader = hasHeader
        self.comment = comment
        self.quoteRule = quoteRule
    }

    /// RFC 4180: comma, double quote, a header row, no comments, quotes only around whole fields.
    public static let rfc4180 = CSVDialect()
}
