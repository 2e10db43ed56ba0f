import FerryModel
import FerryStore

/// Values the model's validation forbids (`AttributeValidation`: Xcode's Minimum, Maximum and
/// Reg. Ex., the validation rules of a compiled model). Core Data's validation refuses to save
/// such an object, so Ferry rejects its record rather than write one the app could not save.
final class RecordValidation {
    private let schema: RecordSchema
    /// The validated attributes, by position in the schema.
    private let checks: [(index: Int, validation: AttributeValidation)]

    /// The validation of `schema`'s records; nil when no attribute has bounds or rules.
    init?(_ schema: RecordSchema) {
        checks = schema.attributes.enumerated().compactMap { index, attribute in AttributeValidation(attribute).map { (index, $0) } }
        guard !checks.isEmpty else { return nil }
        self.schema = schema
    }

    /// Why a record with `values` (of the schema's attributes, in order) fails validation, naming
    /// the first attribute that does; nil when every validated value passes.
    func problem(_ values: [AttributeValue]) -> String? {
        for (index, validation) in checks where index < values.count {
            guard let problem = validation.problem(of: values[index]) else { continue }
            return "\(schema.entity.name).\(schema.attributes[index].name): \(problem)"
        }
        return nil
    }
}
