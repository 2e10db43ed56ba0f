import FerryModel

/// Completes a record from the values a source provided: absent attributes get their model
/// default (or nil, by `AbsentKeyRule`), and a required attribute that ends up nil without a
/// default is a reject. The defaults given to absent attributes are counted per attribute, for
/// the report (`absentDefaults`): they are values no record gave.
public struct RecordAssembler: Sendable {
    public let schema: RecordSchema
    /// Each attribute's parsed default value (`.null` when it has none).
    private let defaults: [AttributeValue]
    /// Whether each attribute is optional: read per nil value, so kept apart from the attributes
    /// (copying an `Attribute` costs a reference count per text property).
    private let optional: [Bool]
    /// Whether an optional attribute a record has no key for stays empty rather than taking its
    /// default: `AbsentKeyRule.null`, or a source of a store's rows (see `readsStoreRows()`).
    private var keepsAbsentEmpty: Bool
    /// By attribute: how many records completed so far took its default for want of its key.
    private var absentDefaulted: [Int]

    public init(schema: RecordSchema, absent rule: AbsentKeyRule = .modelDefault) throws(ModelDefaultError) {
        self.schema = schema
        var defaults: [AttributeValue] = []
        for attribute in schema.attributes {
            defaults.append(try Self.defaultValue(of: attribute, entity: schema.entity.name))
        }
        self.defaults = defaults
        optional = schema.attributes.map(\.isOptional)
        keepsAbsentEmpty = rule == .null
        absentDefaulted = [Int](repeating: 0, count: defaults.count)
    }

    /// Reads the source's records as a store's rows (they carry `Z_PK`: a Ferry export): an
    /// optional attribute whose key a record lacks was NULL in the store (a property list has no
    /// null, so an export leaves the key out), and stays empty.
    public mutating func readsStoreRows() {
        keepsAbsentEmpty = true
    }

    /// The outcome of completing one record.
    public enum Outcome: Sendable, Equatable {
        case record(values: [AttributeValue], defaulted: Int)
        case missingRequired(attribute: String)
    }

    /// Fills nil values of required attributes with their defaults, and the values of attributes
    /// the source does not have (`provided[i] == false`) with their defaults, but for an optional
    /// one whose absent key stays empty. `defaulted` counts the nulls of required attributes
    /// filled; the defaults of absent keys are counted in `absentDefaults`.
    ///
    /// `values` is taken, not copied: filled in place, it becomes the record's.
    public mutating func complete(_ values: consuming [AttributeValue], provided: [Bool]) -> Outcome {
        var defaulted = 0
        var absent = false
        for index in 0..<values.count {
            guard case .null = values[index], !provided[index] || !optional[index] else { continue }
            if !provided[index], optional[index], keepsAbsentEmpty { continue }
            if case .null = defaults[index] {
                if !optional[index] { return .missingRequired(attribute: schema.attributes[index].name) }
                continue
            }
            values[index] = defaults[index]
            if provided[index] { defaulted += 1 } else { absent = true }
        }
        // Counted once the record is complete: a reject takes no default.
        if absent {
            for index in 0..<values.count where !provided[index] && !defaults[index].isNull && !(optional[index] && keepsAbsentEmpty) {
                absentDefaulted[index] += 1
            }
        }
        return .record(values: values, defaulted: defaulted)
    }

    /// The attributes whose default records took for want of their key, with how many did.
    public var absentDefaults: [AbsentDefault] {
        schema.attributes.indices.filter { absentDefaulted[$0] > 0 }.map { index in
            let attribute = schema.attributes[index]
            let value: String
            if case .date(let seconds) = defaults[index] {
                value = ISO8601Date.format(seconds) ?? String(seconds)
            } else {
                value = attribute.defaultValueString ?? ""
            }
            return AbsentDefault(entity: schema.entity.name, attribute: attribute.name, value: value, records: absentDefaulted[index])
        }
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
