import FerryModel

/// Makes the records of one `MadeRecordRule` from a source record's values, laid out for the
/// made entity of the step's destination version: one record, or one per part of a split text.
struct RecordMaker {
    /// What one source record gives.
    enum Outcome {
        /// The records made, in link order: none when the key (first argument) is nil or blank
        /// or the split text is nil, each distinct record once. `skipped`: the records not made
        /// because an argument failed under `on error nil`.
        case made([EmbeddedRecord], skipped: Int)
        /// An argument (`Tag.name`) or the split text failed, or a required attribute has no value.
        case failure(part: String, reason: String)
    }

    /// What one record (or one part) gives.
    private enum Single {
        case made(EmbeddedRecord)
        case none
        case failure(part: String, reason: String)
    }

    let rule: MadeRecordRule
    private let schema: RecordSchema
    /// Per argument, the made attribute's position and type.
    private let indexes: [Int]
    private let types: [AttributeType]
    /// The made entity's defaults, which attributes no argument gives keep.
    private let defaults: [AttributeValue]
    /// The positions of the attributes of each uniqueness constraint of the made entity; two
    /// records equal on one are the same record (with none, records equal on all values are).
    private let constraints: [[Int]]
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
            indexes.append(index)
        }
        if let problem = rule.expressions.lazy.compactMap({ $0.variableProblem(variables) }).first {
            throw .model("\(rule.location): \(rule) \(problem)")
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
        constraints = model.ancestry(of: rule.entity).flatMap(\.uniquenessConstraints).compactMap { names in
            let positions = names.compactMap { schema.index(of: $0) }
            return positions.count == names.count ? positions : nil
        }
        self.options = options
    }

    /// The records `carrier` makes, each keyed so that the carrier's link can name it.
    func make(from carrier: Record, context: some ExpressionContext) -> Outcome {
        var made: [EmbeddedRecord] = []
        var skipped = 0
        func add(_ single: Single) -> Outcome? {
            switch single {
            case .made(let item):
                if rule.alwaysNew || !made.contains(where: { same($0.record.values, item.record.values) }) { made.append(item) }
            case .none:
                break
            case let .failure(part, reason):
                guard rule.onFailure == .null else { return .failure(part: part, reason: reason) }
                skipped += 1
            }
            return nil
        }
        guard let parts = rule.parts else {
            return add(record(from: carrier, context: context, part: nil)) ?? .made(made, skipped: skipped)
        }
        let text: String
        switch parts.text.evaluate(context) {
        case .success(.null):
            return .made([], skipped: 0)
        case .success(.string(let value)):
            text = value
        case .success(let value):
            if let failed = add(.failure(part: "split(\(parts.text), …)", reason: "needs text, not \(ValueConversion.naturalType(of: value).xcodeName)")) { return failed }
            return .made([], skipped: skipped)
        case .failure(let failure):
            if let failed = add(.failure(part: "split(\(parts.text), …)", reason: failure.reason)) { return failed }
            return .made([], skipped: skipped)
        }
        for (number, part) in parts.parts(of: text).enumerated() {
            let single = record(from: carrier, context: PartContext(base: context, currentPart: part), part: number)
            if let failed = add(single) { return failed }
        }
        return .made(made, skipped: skipped)
    }

    /// The record of one part (`part` its number), or of the carrier when there are no parts.
    private func record(from carrier: Record, context: some ExpressionContext, part: Int?) -> Single {
        var values = defaults
        for (position, argument) in rule.arguments.enumerated() {
            let type = types[position]
            let result = argument.expression.evaluate(context).flatMap { value in
                ValueConversion.convert(value, from: ValueConversion.naturalType(of: value), to: type, options: options)
                    .mapError { ExpressionFailure($0.reason) }
            }
            switch result {
            case .success(let value):
                if position == 0, !rule.alwaysNew, Self.isBlank(value) { return .none }
                values[indexes[position]] = value
            case .failure(let failure):
                return .failure(part: "\(rule.entity).\(argument.attribute)", reason: failure.reason)
            }
        }
        for (index, attribute) in schema.attributes.enumerated() where values[index] == .null && !attribute.isOptional {
            return .failure(part: "\(rule.entity).\(attribute.name)", reason: "required, and no value or default")
        }
        var location = carrier.location
        location.path = (location.path.map { $0 + "." } ?? "") + rule.relationship + (part.map { "[\($0)]" } ?? "")
        let record = Record(values: values, location: location, key: key(for: carrier, part: part))
        return .made(EmbeddedRecord(entity: rule.entity, record: record, findByValues: !rule.alwaysNew))
    }

    /// Whether two made records are the same record: equal on a uniqueness constraint, or,
    /// without one, on all values.
    private func same(_ a: [AttributeValue], _ b: [AttributeValue]) -> Bool {
        guard !constraints.isEmpty else { return a == b }
        return constraints.contains { positions in positions.allSatisfy { a[$0] == b[$0] } }
    }

    /// The made record's source key: the rule's place in its file, the carrier's key (or line)
    /// and the part's number, so that it is unique within the source; it starts with U+0002,
    /// which no file key or nested record's key does.
    private func key(for carrier: Record, part: Int?) -> RecordKey {
        let carrierKey = switch carrier.key {
        case .integer(let number)?: "#\(number)"
        case let .row(number, root)?: "#\(root).\(number)"
        case .text(let text)?: "'\(text)"
        case nil: carrier.location.description
        }
        return .text("\u{2}\(rule.location)\u{1}\(carrierKey)" + (part.map { "\u{1}\($0)" } ?? ""))
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

/// The context of a made record's arguments for one part: the source record's, with `$` the part.
private struct PartContext<Base: ExpressionContext>: ExpressionContext {
    let base: Base
    let currentPart: String?

    func value(of attribute: String) -> AttributeValue? { base.value(of: attribute) }
    func variable(_ name: String) -> String? { base.variable(name) }
}
