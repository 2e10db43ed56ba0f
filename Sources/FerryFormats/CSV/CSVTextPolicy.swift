/// How ``CSVRow/string(_:)`` decodes a field's bytes.
public enum CSVTextPolicy: Sendable, Hashable {
    /// As UTF-8; a field that is not valid UTF-8 throws ``CSVError/invalidUTF8(source:line:field:)``.
    case strictUTF8
    /// Every field as ``Windows1252`` (the reading the WHATWG Encoding Standard gives the label
    /// Latin-1), UTF-8 or not, so that the same bytes read the same in every row; for legacy
    /// exports from Windows and old Mac tools. A byte order mark still makes the input Unicode.
    case windows1252
}
