import FerryModel
import FerryStore

/// An entity mapping made ready to run: records of the source schema in, records of the
/// destination schema out (or a reject, or filtered out).
public final class EntityTransform {
    /// What became of one record.
    public enum Outcome {
        case record(Record, converted: Int)
        case reject(Reject)
        case filtered
    }

    public let mapping: EntityMapping
    public let source: RecordSchema
    public let destination: RecordSchema
    private let rules: [CompiledRule]
    private let defaults: [AttributeValue]
    /// Per source relationship, the destination relationships its links feed.
    private let relationshipNames: [String: [String]]
    /// Destination relationships linked to what the step makes from the same source record.
    private let sourceRecordLinks: [String]
    private let filter: PredicateEvaluator?
    private let options: CoercionOptions
    fileprivate let variables: [String: String]
    private let policies: [FailurePolicy]
    /// Per destination attribute: whether it may stay nil, and its type.
    private let optional: [Bool]
    private let types: [AttributeType]
    /// The records made from values (`folder = Folder(name: …)`), in rule order.
    private let makers: [RecordMaker]
    /// Source attributes no mapping of the step carries, by index, with how many values (not
    /// nil) of them the records mapped so far held: dropped on purpose, and named.
    private let uncarried: [Int]
    private var uncarriedValues: [Int]
    /// `note "TEXT" if CONDITION`, with what each has counted so far.
    private let notes: [MappingNote]
    private var noteTallies: [MappingNote.Tally]

    private enum CompiledRule {
        case copy(Int)
        case convert(Int, from: AttributeType, to: AttributeType)
        case defaultValue
        case expression(MappingExpression)
    }

    /// - Parameters:
    ///   - uncarried: source attributes no mapping of the step carries, whose values (not nil)
    ///     are counted (`uncarriedCounts`).
    ///   - variables: values of `$NAME` in written expressions.
    ///   - destinationModel: the destination version, which the records a mapping makes
    ///     (`EntityMapping.madeRecords`) are laid out for; needed only when it makes some.
    public init(mapping: EntityMapping, source: RecordSchema, destination: RecordSchema,
                options: CoercionOptions = .init(), variables: [String: String] = [:],
                destinationModel: ManagedObjectModel? = nil, uncarried: [String] = []) throws(MappingError) {
        self.mapping = mapping
        self.uncarried = uncarried.compactMap(source.index(of:))
        uncarriedValues = Array(repeating: 0, count: self.uncarried.count)
        self.source = source
        self.destination = destination
        self.options = options
        self.variables = variables
        policies = destination.attributes.map { attribute in mapping.rule(for: attribute.name)?.onFailure ?? .reject }
        optional = destination.attributes.map(\.isOptional)
        types = destination.attributes.map(\.type)
        var rules: [CompiledRule] = []
        var defaults: [AttributeValue] = []
        for attribute in destination.attributes {
            do { defaults.append(try RecordAssembler.defaultValue(of: attribute, entity: destination.entity.name)) } catch {
                throw MappingError.model(error.description)
            }
            switch mapping.rule(for: attribute.name)?.rule ?? .defaultValue {
            case .defaultValue:
                rules.append(.defaultValue)
            case .copy(let name):
                guard let index = source.index(of: name) else { throw MappingError.unknownSourceAttribute(entity: source.entity.name, name: name) }
                rules.append(.copy(index))
            case let .convert(name, from, to):
                guard let index = source.index(of: name) else { throw MappingError.unknownSourceAttribute(entity: source.entity.name, name: name) }
                rules.append(.convert(index, from: from, to: to))
            case .expression(let expression):
                if let problem = expression.variableProblem(variables) {
                    throw MappingError.model("\(destination.entity.name).\(attribute.name) \(problem)")
                }
                rules.append(.expression(expression))
            }
        }
        self.rules = rules
        self.defaults = defaults
        for note in mapping.notes {
            if let problem = note.condition.variableProblem(variables) {
                throw MappingError.model("\(source.entity.name): note \"\(note.text)\" \(problem)")
            }
        }
        notes = mapping.notes
        noteTallies = Array(repeating: MappingNote.Tally(), count: mapping.notes.count)
        var makers: [RecordMaker] = []
        for rule in mapping.madeRecords {
            guard let destinationModel else { throw MappingError.model("\(rule.location): making \(rule.entity) needs the destination model") }
            makers.append(try RecordMaker(rule: rule, model: destinationModel, options: options, variables: variables))
        }
        self.makers = makers
        relationshipNames = Dictionary(grouping: mapping.relationships, by: \.source).mapValues { $0.map(\.destination) }
        sourceRecordLinks = mapping.sourceRecordLinks
        if let filter = mapping.filter {
            do {
                self.filter = try PredicateEvaluator(filter.predicate, types: source.attributes.typesByName, entity: source.entity.name)
            } catch {
                throw MappingError.filter(entity: source.entity.name, text: filter.text, reason: error.description)
            }
        } else {
            filter = nil
        }
    }

    /// Maps one record. Keys carry over; links are renamed (a source relationship may feed
    /// several destination relationships), and links of relationships the destination does not have are dropped; links to what the step makes from the same source
    /// record (`EntityMapping.sourceRecordLinks`) name the record's own key. Records made from values are carried by the
    /// mapped record (`Record.embedded`, in the destination version) and linked by key; records
    /// the source record carried are not kept (the caller carries them).
    /// The uncarried source attributes whose records held values, with how many.
    public var uncarriedCounts: [(attribute: String, values: Int)] {
        zip(uncarried, uncarriedValues).filter { $0.1 > 0 }.map { (source.attributes[$0.0].name, $0.1) }
    }

    /// The notes of the mapping that counted a record so far, with their tallies.
    public var notedRecords: [(note: String, tally: MappingNote.Tally)] {
        zip(notes, noteTallies).filter { $0.1.records > 0 }.map { ($0.0.text, $0.1) }
    }

    public func apply(_ record: Record) -> Outcome {
        if let filter {
            // A filter that cannot be evaluated on a record rejects it (it filtered every record
            // out, exit 0): only a filter that says no leaves a record out.
            do {
                guard try filter.matches({ name in self.source.index(of: name).map { record.values[$0] } }) else { return .filtered }
            } catch {
                return .reject(Reject(location: record.location, entity: source.entity.name,
                                      reason: "where \(filter.predicate): \(error.description)"))
            }
        }
        for (position, index) in uncarried.enumerated() where record.values[index] != .null { uncarriedValues[position] += 1 }
        var values = [AttributeValue].nulls(count: rules.count)
        var converted = 0
        let context = SourceRecordContext(transform: self, values: record.values)
        for index in rules.indices {
            let policy = policies[index]
            // Why a rule that may fail to nil did: said if the attribute is required after all.
            var failedTo: String?
            switch rules[index] {
            case .expression(let expression):
                let type = types[index]
                let result = expression.evaluate(context).flatMap { value in
                    ValueConversion.convert(value, from: ValueConversion.naturalType(of: value), to: type,
                                            options: options).mapError { ExpressionFailure($0.reason) }
                }
                switch result {
                case .success(let value):
                    values[index] = value
                case .failure(let failure):
                    guard policy == .null else {
                        return .reject(Reject(location: record.location, entity: source.entity.name,
                                              attribute: destination.attributes[index].name,
                                              reason: "\(destination.entity.name).\(destination.attributes[index].name) = \(expression): \(failure.reason)"))
                    }
                    failedTo = failure.reason
                    converted += 1
                }
            case .defaultValue:
                values[index] = defaults[index]
            case .copy(let sourceIndex):
                values[index] = record.values[sourceIndex]
            case let .convert(sourceIndex, from, to):
                switch ValueConversion.convert(record.values[sourceIndex], from: from, to: to, options: options) {
                case .success(let value):
                    values[index] = value
                case .failure(let failure):
                    guard policy == .null else {
                        return .reject(Reject(location: record.location, entity: source.entity.name,
                                              attribute: source.attributes[sourceIndex].name,
                                              value: ValueConversion.text(of: record.values[sourceIndex]),
                                              reason: "\(destination.entity.name).\(destination.attributes[index].name): \(failure.reason)"))
                    }
                    failedTo = failure.reason
                    converted += 1
                }
            }
            if !optional[index], values[index] == .null {
                values[index] = defaults[index]
                guard values[index] != .null else {
                    return .reject(Reject(location: record.location, entity: source.entity.name,
                                          attribute: destination.attributes[index].name,
                                          reason: "\(destination.entity.name).\(destination.attributes[index].name) is required and has no value or default"
                                            + (failedTo.map { " (its rule failed: \($0))" } ?? "")))
                }
            }
        }
        var links = record.links.flatMap { link in
            (relationshipNames[link.relationship] ?? []).map { RecordLink(relationship: $0, targets: link.targets) }
        }
        if let key = record.key {
            links += sourceRecordLinks.map { RecordLink(relationship: $0, targets: [.key(key)]) }
        }
        var made: [EmbeddedRecord] = []
        for maker in makers {
            switch maker.make(from: record, context: context) {
            case let .made(items, skipped):
                made += items
                let targets = items.compactMap { $0.record.key.map(RecordLink.Target.key) }
                if !targets.isEmpty { links.append(RecordLink(relationship: maker.rule.relationship, targets: targets)) }
                converted += skipped
            case let .failure(part, reason):
                return .reject(Reject(location: record.location, entity: source.entity.name, attribute: maker.rule.relationship,
                                      reason: "\(destination.entity.name).\(maker.rule.relationship) = \(maker.rule) (\(maker.rule.location)): \(part): \(reason)"))
            }
        }
        // Counted once the record is mapped (a record its rules reject is not).
        for index in notes.indices {
            if case .success(.bool(true)) = notes[index].condition.evaluate(context) { noteTallies[index].count(record.location.description) }
        }
        return .record(Record(values: values, location: record.location, key: record.key, links: links, embedded: made,
                              identity: record.identity), converted: converted)
    }
}

/// A source record as the context of a written expression.
struct SourceRecordContext: ExpressionContext {
    let transform: EntityTransform
    let values: [AttributeValue]

    func value(of attribute: String) -> AttributeValue? { transform.source.index(of: attribute).map { values[$0] } }
    func variable(_ name: String) -> String? { transform.variables[name] }
}

/// Why a mapping cannot be used.
public enum MappingError: Error, CustomStringConvertible, Equatable {
    case model(String)
    case unknownSourceAttribute(entity: String, name: String)
    case filter(entity: String, text: String, reason: String)
    /// A problem in a written mapping file, at a line and column.
    case file(path: String, line: Int, column: Int, reason: String)
    case chain(String)
    /// A Core Data mapping model's entity mapping (and property, when one is at fault) that
    /// cannot run as it is.
    case mappingModel(path: String, entityMapping: String, property: String?, reason: String)

    public var description: String {
        switch self {
        case .model(let reason): reason
        case let .unknownSourceAttribute(entity, name): "source entity \(entity) has no attribute '\(name)'"
        case let .filter(entity, text, reason): "filter of \(entity) '\(text)': \(reason)"
        case let .file(path, line, column, reason): "\(path):\(line):\(column): \(reason)"
        case .chain(let reason): reason
        case let .mappingModel(path, entityMapping, property, reason):
            "\(path): entity mapping \(entityMapping)\(property.map { ", \($0)" } ?? ""): \(reason)"
        }
    }
}
