/// What a CSV reader makes of quotes that break RFC 4180's rule that only a whole field is quoted:
/// text between a closing quote and the end of its field, as in `"ab"cd`, and a quote inside a
/// field that does not start with one, as in `a"b` or `1, "Smith"` (a space before the quote).
public enum CSVQuoteRule: String, Sendable, Hashable, CaseIterable {
    /// The row says which field broke the rule first (``CSVRow/quoteBreak``), for its reader to
    /// reject it; a header that breaks it cannot be read.
    case strict
    /// The text is read as written (`"ab"cd` reads as `abcd`, `a"b` as `a"b`), as many
    /// spreadsheet programs do.
    case lenient
}
