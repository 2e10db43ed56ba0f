import FerryFormats

extension RecordSourceError {
    /// A CSV file that cannot be read on, with its file and line.
    public init(_ error: CSVError) {
        switch error {
        case .tooManyFields:
            self.init(source: error.source, line: error.line, reason: error.reason + " (--max-columns N reads wider rows)")
        case .unterminatedQuote, .invalidUTF8, .fieldTooLarge, .textAfterQuote, .quoteInUnquotedField:
            self.init(source: error.source, line: error.line, reason: error.reasonWithRemedy)
        }
    }
}

extension CSVError {
    /// The reason, followed by the option that reads past it when there is one.
    public var reasonWithRemedy: String {
        switch self {
        case .textAfterQuote: reason + " (--csv-quotes lenient joins it to the field)"
        case .quoteInUnquotedField: reason + " (--csv-quotes lenient reads the quote as it is written)"
        case .unterminatedQuote, .invalidUTF8, .tooManyFields, .fieldTooLarge: reason
        }
    }
}
