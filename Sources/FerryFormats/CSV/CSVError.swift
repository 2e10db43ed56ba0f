/// Why a CSV file could not be read. Lines are physical lines, 1-based, counting line breaks
/// inside quoted fields; fields are 1-based.
public enum CSVError: Error, Equatable, CustomStringConvertible {
    /// A quoted field opened on `line` never closed before the end of the input.
    case unterminatedQuote(source: String, line: Int)
    /// Field `field` of the row starting on `line` is not valid UTF-8.
    case invalidUTF8(source: String, line: Int, field: Int)

    public var description: String {
        switch self {
        case let .unterminatedQuote(source, line):
            "\(source):\(line): quoted field starting on this line is never closed"
        case let .invalidUTF8(source, line, field):
            "\(source):\(line): field \(field) is not valid UTF-8"
        }
    }
}
