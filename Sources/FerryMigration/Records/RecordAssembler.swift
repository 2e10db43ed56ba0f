import FerryModel

/// Completes a record from the values a source provided: absent attributes get their model
/// default (or nil), and a required attribute that ends up nil without a default is a reject.
public struct RecordAssembler: Sendable {
    public let schema: RecordSchema
    /// Each attribute's parsed default value (`.null` when it has none).
    private let defaults: [AttributeValue]
    /// Whether each attribute is optional: read per nil value, so kept apart from the attributes
    /// (copying an `Attribute` costs a reference count per text property).
    private let optional: [Bool]

    public init(schema: RecordSchema) throws(ModelDefaultError) {
        self.schema = schema
        var defaults: [AttributeValue] = []
        for attribute in schema.attributes {
            defaults.append(try Self.defaultValue(of: attribute, entity: schema.entity.name))
        }
        self.defaults = defaults
        optional = schema.attributes.map(\.isOptional)
    }

    /// The outcome of completing one record.
    public enum Outcome: Sendable, Equatable {
        case record(values: [AttributeValue], defaulted: Int)
        case missingRequired(attribute: String)
    }

    /// Fills nil values of required attributes with their defaults, and the values of attributes
    /// the source does not have (`provided[i] == false`) with their defaults.
    ///
    /// `values` is taken, not copied: filled in place, it becomes the record's.
    public func complete(_ values: consuming [AttributeValue], provided: [Bool]) -> Outcome {
        var defaulted = 0
        for index in 0..<values.count {
            guard case .null = values[index], !provided[index] || !optional[index] else { continue }
            if case .null = defaults[index] {
                if !optional[index] { return .missingRequired(attribute: schema.attributes[index].name) }
                continue
            }
            values[index] = defaults[index]
            if provided[index] { defaulted += 1 }
        }
        return .record(values: values, defaulted: defaulted)
    }

    static func defaultValue(of attribute: Attribute, entity: String) throws(ModelDefaultError) -> AttributeValue {
        if attribute.type == .date, let interval = attribute.defaultDateTimeInterval { return .date(interval) }
        guard let text = attribute.defaultValueString else { return .null }
        switch TextCoercion.value(text, as: attribute.type, options: CoercionOptions(numericDateEpoch: .referenceSeconds)) {
        case .success(let value): return value
        case .failure(let failure):
            throw ModelDefaultError(entity: entity, attribute: attribute.name, value: text, reason: failure.reason)
        }
    }
}

/// A model default value that cannot be read as its attribute's type.
public struct ModelDefaultError: Error, Sendable, Equatable, CustomStringConvertible {
    public let entity: String
    public let attribute: String
    public let value: String
    public let reason: String

    public var description: String {
        "the default value of \(entity).\(attribute) cannot be used: \(reason)"
    }
}
