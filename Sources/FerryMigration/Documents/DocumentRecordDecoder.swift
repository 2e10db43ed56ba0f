import FerryModel

/// Decodes one object of a JSON or property-list document into a record of an entity.
///
/// Keys match attributes and relationships as `PropertyKeyMatcher` does. Attribute values go
/// through `DocumentCoercion`. A relationship key holds destination values (one, or an array):
/// each becomes a link that finds the destination by an attribute, named per relationship in
/// `linkAttributes`, or by default the destination's single-attribute uniqueness constraint
/// (`Tag.name`). Keys that match nothing are collected once each in `unknownKeys`.
public struct DocumentRecordDecoder {
    public let schema: RecordSchema
    private let model: ManagedObjectModel
    private let matcher: PropertyKeyMatcher
    private let assembler: RecordAssembler
    private let linkAttributes: [String: String]
    private let options: CoercionOptions
    private var keyTargets: [String: KeyTarget] = [:]
    public private(set) var unknownKeys: [String] = []

    private enum KeyTarget {
        case attribute(Int)
        case relationship(Relationship, matchAttribute: Attribute)
        case unknown
    }

    /// - Parameter linkAttributes: relationship name → the destination attribute its values match.
    public init(schema: RecordSchema, model: ManagedObjectModel, keyMap: [String: String] = [:],
                linkAttributes: [String: String] = [:], options: CoercionOptions = .init()) throws(RecordSourceError) {
        self.schema = schema
        self.model = model
        matcher = PropertyKeyMatcher(schema: schema, keyMap: keyMap)
        do { assembler = try RecordAssembler(schema: schema) } catch {
            throw RecordSourceError(source: schema.entity.name, reason: error.description)
        }
        self.linkAttributes = linkAttributes
        self.options = options
    }

    /// Decodes one record of a document: it must be an object (`container` names what the format
    /// calls one, for the reject: "a JSON object", "a dictionary").
    public mutating func decodeRecord(_ value: DocumentValue, at location: SourceLocation, container: String)
        throws(RecordSourceError) -> RecordReadResult
    {
        guard case let .object(members) = value else {
            return .reject(Reject(location: location, entity: schema.entity.name,
                                  reason: "a record must be \(container), not \(value.kindName)"))
        }
        return try decode(members, at: location)
    }

    /// Decodes one document object found at `location`.
    public mutating func decode(_ members: [(key: String, value: DocumentValue)], at location: SourceLocation)
        throws(RecordSourceError) -> RecordReadResult
    {
        let entity = schema.entity.name
        var values = [AttributeValue](repeating: .null, count: schema.attributes.count)
        var provided = [Bool](repeating: false, count: schema.attributes.count)
        var links: [RecordLink] = []
        for (key, value) in members {
            switch try target(for: key, source: location.file) {
            case .unknown:
                continue
            case .attribute(let index):
                let attribute = schema.attributes[index]
                provided[index] = true
                switch DocumentCoercion.value(value, as: attribute.type, options: options) {
                case .success(let converted):
                    values[index] = converted
                case .failure(let failure):
                    return .reject(Reject(location: location, entity: entity, attribute: attribute.name,
                                          value: Self.sample(value), reason: failure.reason))
                }
            case let .relationship(relationship, matchAttribute):
                let items: [DocumentValue]
                switch value {
                case .null: items = []
                case .array(let elements): items = elements
                default: items = [value]
                }
                var targets: [RecordLink.Target] = []
                for item in items {
                    if case .object = item {
                        return .reject(Reject(location: location, entity: entity, attribute: relationship.name,
                                              reason: "a relationship lists \(matchAttribute.name) values of \(relationship.destinationEntity), not objects"))
                    }
                    switch DocumentCoercion.value(item, as: matchAttribute.type, options: options) {
                    case .success(.null): continue
                    case .success(let converted): targets.append(.match(attribute: matchAttribute.name, value: converted))
                    case .failure(let failure):
                        return .reject(Reject(location: location, entity: entity, attribute: relationship.name,
                                              value: Self.sample(item), reason: "\(relationship.destinationEntity).\(matchAttribute.name): \(failure.reason)"))
                    }
                }
                if !relationship.isToMany, targets.count > 1 {
                    return .reject(Reject(location: location, entity: entity, attribute: relationship.name,
                                          reason: "a to-one relationship takes one value, not \(targets.count)"))
                }
                links.append(RecordLink(relationship: relationship.name, targets: targets))
            }
        }
        switch assembler.complete(values, provided: provided) {
        case let .record(values, defaulted):
            return .record(Record(values: values, location: location, links: links), defaulted: defaulted)
        case let .missingRequired(attribute):
            return .reject(Reject(location: location, entity: entity, attribute: attribute,
                                  reason: provided[schema.index(of: attribute) ?? 0] ? "required attribute is null and has no default"
                                                                                   : "required attribute is missing and has no default"))
        }
    }

    private mutating func target(for key: String, source: String) throws(RecordSourceError) -> KeyTarget {
        if let known = keyTargets[key] { return known }
        let resolved: KeyTarget
        if let index = matcher.attributeIndex(forKey: key) {
            resolved = .attribute(index)
        } else if let relationship = relationship(forKey: key) {
            resolved = .relationship(relationship, matchAttribute: try matchAttribute(for: relationship, source: source))
        } else {
            resolved = .unknown
            unknownKeys.append(key)
        }
        keyTargets[key] = resolved
        return resolved
    }

    private func relationship(forKey key: String) -> Relationship? {
        let relationships = model.allRelationships(of: schema.entity.name).filter { !$0.isTransient }
        let folded = key.lowercased()
        return relationships.first { $0.name == key } ?? relationships.first { $0.name.lowercased() == folded }
            ?? relationships.first { $0.renamingIdentifier == key }
    }

    /// The destination attribute a relationship's values match: the configured one, or the
    /// destination's only single-attribute uniqueness constraint.
    private func matchAttribute(for relationship: Relationship, source: String) throws(RecordSourceError) -> Attribute {
        let destination = relationship.destinationEntity
        let attributes = model.allAttributes(of: destination)
        if let name = linkAttributes[relationship.name] {
            guard let attribute = attributes.first(where: { $0.name == name }) else {
                throw RecordSourceError(source: source, reason: "\(destination) has no attribute '\(name)' for relationship '\(relationship.name)'")
            }
            return attribute
        }
        let unique = model.ancestry(of: destination).flatMap(\.uniquenessConstraints).filter { $0.count == 1 }.map { $0[0] }
        guard unique.count == 1, let attribute = attributes.first(where: { $0.name == unique[0] }) else {
            throw RecordSourceError(source: source, reason:
                "relationship '\(relationship.name)' lists values of \(destination): say which \(destination) attribute they match with --link \(relationship.name)=ATTRIBUTE")
        }
        return attribute
    }

    private static func sample(_ value: DocumentValue) -> String {
        switch value {
        case .string(let text), .number(let text): TextCoercion.clipped(text)
        case .bool(let flag): flag ? "true" : "false"
        default: value.kindName
        }
    }
}
