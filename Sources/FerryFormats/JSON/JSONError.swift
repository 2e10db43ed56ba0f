/// Why a JSON input could not be read. Every case says where.
public enum JSONError: FileError, Equatable {
    /// The input breaks the RFC 8259 grammar (or an NDJSON line rule) at `at`.
    case syntax(Reason, at: JSONPosition)
    /// Containers nest deeper than the reader's limit; `at` is the container that crossed it.
    case depthLimitExceeded(limit: Int, at: JSONPosition)
    /// The records key path does not lead anywhere: a key is missing or a level is not an object.
    case recordsNotFound(keyPath: [String], at: JSONPosition)
    /// The records key path leads to a value that is not an array.
    case recordsNotAnArray(keyPath: [String], at: JSONPosition)
    /// A key on the records key path appears twice in its object; the records would be ambiguous.
    case duplicateRecordsKey(keyPath: [String], at: JSONPosition)
    /// A string or number token starting at `at` is longer, as written, than the reader's limit
    /// of `limit` bytes (see ``ValueSizeLimit``).
    case valueTooLarge(limit: Int, at: JSONPosition)
    /// The window could not grow to `bytes` for the token starting at `at` (the system has no
    /// memory for a value that long; a lower `--max-value-bytes` refuses it sooner).
    case outOfMemory(bytes: Int, at: JSONPosition)

    /// What exactly was wrong in a ``syntax(_:at:)`` error.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// `byte` appeared where `expected` (for example `',' or ']'`) was required.
        case unexpectedByte(UInt8, expected: String)
        /// The input ended where `expected` was required.
        case unexpectedEnd(expected: String)
        /// A complete value is followed by more than whitespace.
        case trailingContent
        /// A string has no closing quote.
        case unterminatedString
        /// A string holds a raw control character (below U+0020), which must be escaped.
        case controlCharacterInString(UInt8)
        /// A backslash is followed by `byte`, which is not one of `" \ / b f n r t u`.
        case invalidEscape(UInt8)
        /// `\u` is not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\u` escape holds half of a surrogate pair without its other half.
        case loneSurrogate(UInt16)
        /// The string starting here holds bytes that are not valid UTF-8.
        case invalidUTF8
        /// A number does not follow the grammar (digits missing after `-`, `.` or `e`).
        case invalidNumber
        /// An integer part starts with `0` followed by more digits.
        case leadingZero
        /// A word other than `true`, `false`, `null`.
        case invalidLiteral
        /// An NDJSON line ends with a carriage return alone (an old Mac's line ends), where NDJSON
        /// ends lines with LF or CRLF: every later "line" would be read as part of this one.
        case loneCarriageReturn

        public var description: String {
            switch self {
            case let .unexpectedByte(byte, expected):
                "unexpected \(Self.describe(byte)), expected \(expected)"
            case let .unexpectedEnd(expected):
                "unexpected end of input, expected \(expected)"
            case .trailingContent: "unexpected content after the value"
            case .loneCarriageReturn:
                "the line ends with a carriage return alone; NDJSON lines end with LF or CRLF (convert the line ends, e.g. tr '\\r' '\\n')"
            case .unterminatedString: "string is never closed"
            case let .controlCharacterInString(byte): "unescaped control character \(Self.hex(byte)) in string"
            case let .invalidEscape(byte): "invalid escape \\\(Self.describe(byte))"
            case .invalidUnicodeEscape: "\\u must be followed by four hexadecimal digits"
            case let .loneSurrogate(unit): "unpaired surrogate \\u\(String(unit, radix: 16, uppercase: true))"
            case .invalidUTF8: "string is not valid UTF-8"
            case .invalidNumber: "invalid number"
            case .leadingZero: "number has a leading zero"
            case .invalidLiteral: "invalid literal (expected true, false or null)"
            }
        }

        private static func describe(_ byte: UInt8) -> String {
            switch byte {
            case UInt8(ascii: "\n"): "line break (NDJSON records must fit on one line)"
            case 0: "byte 0x00 (UTF-16 or UTF-32 without a byte order mark is not supported)"
            case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
            default: "byte \(hex(byte))"
            }
        }

        private static func hex(_ byte: UInt8) -> String {
            let digits = String(byte, radix: 16, uppercase: true)
            return "0x" + (digits.count < 2 ? "0" + digits : digits)
        }
    }

    /// Where the problem is.
    public var position: JSONPosition {
        switch self {
        case let .syntax(_, at), let .depthLimitExceeded(_, at), let .recordsNotFound(_, at),
            let .recordsNotAnArray(_, at), let .duplicateRecordsKey(_, at), let .valueTooLarge(_, at), let .outOfMemory(_, at):
            at
        }
    }

    public var description: String { "\(position): \(problem)" }

    /// The source the error is in.
    public var path: String { position.source }

    /// Line, column and what is wrong there.
    public var reason: String { "line \(position.line), column \(position.column): \(problem)" }

    /// Why the record it ended is refused, with the column on its line (for a reject, which
    /// names the line): a value past the limit, or JSON that is not valid there.
    public var recordProblem: String {
        if case .valueTooLarge = self { return "\(problem) (column \(position.column))" }
        return "not valid JSON at column \(position.column): \(problem)"
    }

    /// What is wrong, without where.
    public var problem: String {
        switch self {
        case let .syntax(reason, _): reason.description
        case let .depthLimitExceeded(limit, _): "nesting deeper than \(limit) levels"
        case let .recordsNotFound(keyPath, _): "no records at key path \(Self.render(keyPath))"
        case let .recordsNotAnArray(keyPath, _): "the value at key path \(Self.render(keyPath)) is not an array"
        case let .duplicateRecordsKey(keyPath, _): "key path \(Self.render(keyPath)) appears more than once"
        case let .valueTooLarge(limit, _): "a value longer than \(ValueSizeLimit.text(limit)), the most a value may hold"
        case let .outOfMemory(bytes, _): "no memory to read a value of \(bytes) bytes (a lower --max-value-bytes refuses it sooner)"
        }
    }

    private static func render(_ keyPath: [String]) -> String {
        keyPath.map(\.debugDescription).joined(separator: ".")
    }
}
