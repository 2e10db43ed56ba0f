/// What a CSV reader makes of text between a closing quote and the end of its field, as in
/// `"ab"cd` — a break of RFC 4180's rule that a quoted field ends at its closing quote.
public enum CSVQuoteRule: String, Sendable, Hashable, CaseIterable {
    /// The row says which field broke the rule (``CSVRow/textAfterQuote``), for its reader to
    /// reject it; a header that breaks it cannot be read.
    case strict
    /// The text is appended to the field (`"ab"cd` reads as `abcd`), as many spreadsheet
    /// programs do.
    case lenient
}
