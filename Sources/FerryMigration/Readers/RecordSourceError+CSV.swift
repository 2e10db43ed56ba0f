import FerryFormats

extension RecordSourceError {
    /// A CSV file that cannot be read on, with its file and line.
    public init(_ error: CSVError) {
        switch error {
        case .tooManyFields:
            self.init(source: error.source, line: error.line, reason: error.reason + " (--max-columns N reads wider rows)")
        case .unterminatedQuote, .invalidUTF8, .fieldTooLarge:
            self.init(source: error.source, line: error.line, reason: error.reason)
        }
    }
}
