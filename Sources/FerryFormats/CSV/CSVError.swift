/// Why a CSV file could not be read. Lines are physical lines, 1-based, counting line breaks
/// inside quoted fields; fields are 1-based.
public enum CSVError: Error, Equatable, CustomStringConvertible {
    /// A quoted field opened on `line` never closed before the end of the input.
    case unterminatedQuote(source: String, line: Int)
    /// Field `field` of the row starting on `line` is not valid UTF-8.
    case invalidUTF8(source: String, line: Int, field: Int)
    /// The row starting on `line` has more than `limit` fields (the reader's `maxFields`).
    case tooManyFields(source: String, line: Int, limit: Int)
    /// Field `field` of the row starting on `line` has more than `limit` bytes (the reader's
    /// `maxFieldBytes`).
    case fieldTooLarge(source: String, line: Int, field: Int, limit: Int)
    /// Field `field` of the row starting on `line` has text after its closing quote (`"a"x`),
    /// which the strict quote rule (``CSVQuoteRule``) refuses.
    case textAfterQuote(source: String, line: Int, field: Int)
    /// Field `field` of the row starting on `line` holds a quote but does not start with one
    /// (`a"b`, or ` "a"` with a space before the quote), which the strict quote rule refuses:
    /// RFC 4180 lets no quote into an unquoted field.
    case quoteInUnquotedField(source: String, line: Int, field: Int)

    /// The input's name.
    public var source: String {
        switch self {
        case let .unterminatedQuote(source, _), let .invalidUTF8(source, _, _), let .tooManyFields(source, _, _),
            let .fieldTooLarge(source, _, _, _), let .textAfterQuote(source, _, _), let .quoteInUnquotedField(source, _, _): source
        }
    }

    /// The line the error is about.
    public var line: Int {
        switch self {
        case let .unterminatedQuote(_, line), let .invalidUTF8(_, line, _), let .tooManyFields(_, line, _),
            let .fieldTooLarge(_, line, _, _), let .textAfterQuote(_, line, _), let .quoteInUnquotedField(_, line, _): line
        }
    }

    /// The field (1-based) the error is about, when it is about one.
    public var field: Int? {
        switch self {
        case .unterminatedQuote, .tooManyFields: nil
        case let .invalidUTF8(_, _, field), let .fieldTooLarge(_, _, field, _), let .textAfterQuote(_, _, field),
            let .quoteInUnquotedField(_, _, field): field
        }
    }

    /// What is wrong, without the source and line.
    public var reason: String {
        switch self {
        case .unterminatedQuote: "quoted field starting on this line is never closed"
        case let .invalidUTF8(_, _, field):
            "field \(field) is not valid UTF-8 (a file saved as Latin-1 or Windows text is read with --encoding latin1; a binary file is no CSV)"
        case let .tooManyFields(_, _, limit): "the row has more than \(limit) fields"
        case let .fieldTooLarge(_, _, field, limit): "field \(field) is larger than \(ValueSizeLimit.text(limit)), the most a value may hold"
        case let .textAfterQuote(_, _, field): "field \(field) has text after its closing quote (as in \"a\"x)"
        case let .quoteInUnquotedField(_, _, field): "field \(field) has a quote but does not start with one (as in a\"b, or a space before \"a\")"
        }
    }

    public var description: String { "\(source):\(line): \(reason)" }
}
