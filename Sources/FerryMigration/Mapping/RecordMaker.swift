import FerryModel

/// Makes the record of one `MadeRecordRule` from a source record's values, laid out for the
/// made entity of the step's destination version.
struct RecordMaker {
    /// What one source record gives.
    enum Outcome {
        case made(EmbeddedRecord)
        /// The key (first argument) is nil or blank: no record and no link.
        case none
        /// An argument failed, or a required attribute has no value.
        case failure(attribute: String, reason: String)
    }

    let rule: MadeRecordRule
    private let schema: RecordSchema
    /// Per argument, the made attribute's position and type.
    private let indexes: [Int]
    private let types: [AttributeType]
    /// The made entity's defaults, which attributes no argument gives keep.
    private let defaults: [AttributeValue]
    private let options: CoercionOptions

    init(rule: MadeRecordRule, model: ManagedObjectModel, options: CoercionOptions, variables: [String: String]) throws(MappingError) {
        guard let schema = RecordSchema(model: model, entityName: rule.entity) else {
            throw .model("\(rule.location): \(model.name) has no entity '\(rule.entity)'")
        }
        var indexes: [Int] = []
        for argument in rule.arguments {
            guard let index = schema.index(of: argument.attribute) else {
                throw .model("\(rule.location): \(rule.entity) has no attribute '\(argument.attribute)'")
            }
            if let missing = argument.expression.referencedVariables.sorted().first(where: { variables[$0] == nil }) {
                throw .model("\(rule.location): \(rule.entity).\(argument.attribute) uses $\(missing): give it a value (--var \(missing)=…)")
            }
            indexes.append(index)
        }
        var defaults: [AttributeValue] = []
        for attribute in schema.attributes {
            do { defaults.append(try RecordAssembler.defaultValue(of: attribute, entity: rule.entity)) } catch {
                throw .model(error.description)
            }
        }
        self.rule = rule
        self.schema = schema
        self.indexes = indexes
        types = indexes.map { schema.attributes[$0].type }
        self.defaults = defaults
        self.options = options
    }

    /// The record `carrier` makes, keyed so that its link can name it (`key(for:)`).
    func make(from carrier: Record, context: some ExpressionContext) -> Outcome {
        var values = defaults
        for (position, argument) in rule.arguments.enumerated() {
            let type = types[position]
            let result = argument.expression.evaluate(context).flatMap { value in
                ValueConversion.convert(value, from: ValueConversion.naturalType(of: value), to: type, options: options)
                    .mapError { ExpressionFailure($0.reason) }
            }
            switch result {
            case .success(let value):
                if position == 0, Self.isBlank(value) { return .none }
                values[indexes[position]] = value
            case .failure(let failure):
                return .failure(attribute: argument.attribute, reason: failure.reason)
            }
        }
        for (index, attribute) in schema.attributes.enumerated() where values[index] == .null && !attribute.isOptional {
            return .failure(attribute: attribute.name, reason: "required, and no value or default")
        }
        var location = carrier.location
        location.path = (location.path.map { $0 + "." } ?? "") + rule.relationship
        let record = Record(values: values, location: location, key: key(for: carrier))
        return .made(EmbeddedRecord(entity: rule.entity, record: record, findByValues: true))
    }

    /// The made record's source key: the rule's place in its file and the carrier's key (or
    /// line), so that it is unique within the source; it starts with U+0002, which no file key
    /// or nested record's key does.
    func key(for carrier: Record) -> RecordKey {
        let carrierKey = switch carrier.key {
        case .integer(let number)?: "#\(number)"
        case .text(let text)?: "'\(text)"
        case nil: carrier.location.description
        }
        return .text("\u{2}\(rule.location)\u{1}\(carrierKey)")
    }

    /// nil, or text of only white space.
    private static func isBlank(_ value: AttributeValue) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text.allSatisfy(\.isWhitespace)
        default: false
        }
    }
}
