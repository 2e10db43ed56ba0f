import FerryModel

/// The attributes of a schema every saved object must fill (not optional). A record holding NULL
/// in one is rejected: Core Data refuses to save the object, and `ferry verify` fails a store that
/// holds it. A file's records get their defaults before (`RecordAssembler`), but a store's record
/// can hold NULL there (an app's batch update, a damaged store): it was written, and the whole run
/// failed its check (exit 5).
struct RequiredAttributes {
    private let attributes: [(index: Int, name: String)]

    init(_ schema: RecordSchema) {
        attributes = schema.attributes.enumerated().filter { !$0.element.isOptional }.map { ($0.offset, $0.element.name) }
    }

    /// Why a record with `values` (of the schema's attributes, in order) cannot be saved, naming
    /// the first required attribute it leaves NULL; nil when it fills every one.
    func problem(_ values: [AttributeValue]) -> String? {
        for (index, name) in attributes where index < values.count {
            if case .null = values[index] { return "required attribute '\(name)' is NULL (Core Data refuses to save the object without a value)" }
        }
        return nil
    }
}
