/// What ``CSVRow/string(_:)`` does with a field that is not valid UTF-8.
public enum CSVTextPolicy: Sendable, Hashable {
    /// Throw ``CSVError/invalidUTF8(source:line:field:)``.
    case strictUTF8
    /// Decode that field as ISO Latin-1 (every byte is one character), as legacy exports
    /// from Windows and old Mac tools often need. Valid UTF-8 fields are still read as UTF-8.
    case latin1Fallback
}
