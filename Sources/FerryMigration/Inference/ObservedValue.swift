/// One value of a key as a legacy source holds it, seen by model inference.
public enum ObservedValue: Sendable, Equatable {
    /// No value: a key the record lacks, a JSON or plist null, an empty CSV field that import
    /// reads as nil whatever the attribute's type (unquoted, by default).
    case missing
    /// An empty CSV field that import reads as the empty string into a String attribute and as
    /// nil into any other (a quoted `""`, by default; see `CoercionOptions.EmptyField`).
    case emptyField
    /// A value of a document, or the text of a CSV field (`.string`).
    case value(DocumentValue)
}
