/// A record that the fixture writers can serialise: a fixed, ordered list of named fields.
public protocol FixtureRecord: Sendable {
    /// The field names in output order (CSV columns, JSON and plist keys).
    static var fieldNames: [String] { get }

    /// The value of the field at `index` in `fieldNames`.
    func value(ofField index: Int) -> FieldValue
}
