/// One field of a legacy record as it appears in an export, wrong types included: a `fileType`
/// written as `"abc"` is `.text("abc")`, which an importer must reject.
public enum FieldValue: Sendable, Hashable {
    /// The key is missing (JSON, plist) or the column is empty (CSV).
    case absent
    /// A string.
    case text(String)
    /// An integer.
    case integer(Int64)
    /// A boolean.
    case boolean(Bool)
    /// Binary data (base64 in CSV and JSON, `<data>` in a plist).
    case bytes([UInt8])
    /// A list of strings (the task exports' `attachments` and `tags`).
    case texts([String])
}

extension FieldValue {
    /// `.text(value)`, or `.absent` when `value` is nil.
    init(_ value: String?) {
        self = value.map(FieldValue.text) ?? .absent
    }

    /// `.boolean(value)`, or `.absent` when `value` is nil.
    init(_ value: Bool?) {
        self = value.map(FieldValue.boolean) ?? .absent
    }

    /// `.bytes(value)`, or `.absent` when `value` is nil.
    init(_ value: [UInt8]?) {
        self = value.map(FieldValue.bytes) ?? .absent
    }
}
