import FerryModel
import FerryStore

/// Translates the entity mappings of one Core Data mapping model between two model versions
/// into Ferry's rules, one at a time, refusing what Ferry cannot run as Core Data would
/// (`DeclarativeMapping` has the semantics).
struct DeclarativeEntityTranslation {
    let model: CoreDataMappingModel
    let source: ManagedObjectModel
    let destination: ManagedObjectModel

    /// The entity mappings that make destination records from source records, in order.
    var runnable: [CoreDataEntityMapping] {
        model.entityMappings.filter { $0.sourceEntityName != nil && $0.destinationEntityName != nil && $0.type != .remove }
    }

    /// The runnable mappings that take records of `entity`.
    func mappings(of entity: String) -> [CoreDataEntityMapping] {
        runnable.filter { $0.sourceEntityName == entity }
    }

    func entityMapping(_ mapping: CoreDataEntityMapping) throws(MappingError) -> EntityMapping {
        guard let sourceName = mapping.sourceEntityName, let destinationName = mapping.destinationEntityName,
              source.entity(named: sourceName) != nil, let target = destination.entity(named: destinationName) else {
            throw failure(mapping, nil, "its entities are not in \(source.name) and \(destination.name)")
        }
        guard !target.isAbstract else { throw failure(mapping, nil, "\(destinationName) is abstract in \(destination.name): it can have no records") }
        var result = EntityMapping(source: sourceName, destination: destinationName, filter: try filter(mapping, sourceName),
                                   origin: .mappingModel)
        let given = Dictionary(mapping.attributeMappings.map { ($0.name, $0.valueExpression) }, uniquingKeysWith: { first, _ in first })
        let attributes = destination.allAttributes(of: destinationName)
        for named in mapping.attributeMappings where !attributes.contains(where: { $0.name == named.name }) {
            throw failure(mapping, named.name, "\(destinationName) has no attribute '\(named.name)'")
        }
        for attribute in attributes where !attribute.isTransient && attribute.type.sqlColumnType != nil {
            let rule = try valueRule(given[attribute.name] ?? nil, for: attribute, mapping)
            result.attributes.append(AttributeMapping(destination: attribute.name, rule: rule, origin: .mappingModel))
        }
        for named in mapping.relationshipMappings {
            guard let expression = named.valueExpression else { continue }
            guard let relationship = destination.allRelationships(of: destinationName).first(where: { $0.name == named.name }) else {
                throw failure(mapping, named.name, "\(destinationName) has no relationship '\(named.name)'")
            }
            guard !relationship.isTransient else { continue }
            switch try linkSource(expression, for: relationship, mapping) {
            case .relationship(let carried):
                guard !result.relationships.contains(where: { $0.source == carried }) || !Self.keepsEdgesApart(carried, of: sourceName, in: source) else {
                    throw failure(mapping, named.name, "\(sourceName).\(carried) already feeds another relationship, and a store keeps its links apart from its rows: Ferry carries those into one destination relationship")
                }
                result.relationships.append(RelationshipMapping(destination: relationship.name, source: carried, origin: .mappingModel))
            case .sameSourceObject:
                result.sourceRecordLinks.append(relationship.name)
            }
        }
        return result
    }

    /// The source fetch's predicate as a record filter; nil when it takes every record.
    private func filter(_ mapping: CoreDataEntityMapping, _ sourceName: String) throws(MappingError) -> RecordFilter? {
        guard let fetch = mapping.sourceExpression.flatMap(MappingExpressionForm.sourceFetch), fetch.entity == sourceName else {
            throw failure(mapping, nil, "its source expression \(mapping.sourceExpression?.text ?? "(none)") is not a fetch of \(sourceName)'s objects")
        }
        guard fetch.predicate != "TRUEPREDICATE" else { return nil }
        do {
            let parsed = try RecordFilter(fetch.predicate)
            _ = try PredicateEvaluator(parsed.predicate, types: source.allAttributes(of: sourceName).typesByName, entity: sourceName,
                                       relationships: Set(source.allRelationships(of: sourceName).map(\.name)))
            return parsed
        } catch {
            throw failure(mapping, nil, "its source filter '\(fetch.predicate)' cannot run on \(sourceName)'s attributes: \(error.description)")
        }
    }

    /// The rule of one destination attribute: `$source.ATTRIBUTE`, a constant, or the default.
    private func valueRule(_ expression: ArchivedExpression?, for attribute: Attribute, _ mapping: CoreDataEntityMapping) throws(MappingError) -> ValueRule {
        guard let expression else { return .defaultValue }
        let sourceName = mapping.sourceEntityName ?? ""
        if let keyPath = MappingExpressionForm.sourceKeyPath(in: expression) {
            guard let from = source.allAttributes(of: sourceName).first(where: { $0.name == keyPath && !$0.isTransient }) else {
                throw failure(mapping, attribute.name, keyPath.contains(".")
                    ? "$source.\(keyPath) reads through a relationship: Ferry's records carry their own attributes only; write the rule in a written mapping"
                    : "\(sourceName) has no stored attribute '\(keyPath)'")
            }
            if from.type == attribute.type { return .copy(source: from.name) }
            guard ValueConversion.kind(from: from.type, to: attribute.type) != nil else {
                throw failure(mapping, attribute.name, "$source.\(keyPath) is \(from.type.xcodeName), which Ferry does not convert to \(attribute.type.xcodeName)")
            }
            return .convert(source: from.name, from: from.type, to: attribute.type)
        }
        if case .constant(let value) = expression, let literal = Self.literal(value) {
            let natural = ValueConversion.naturalType(of: literal.value)
            guard literal == .null || natural == attribute.type || ValueConversion.kind(from: natural, to: attribute.type) != nil else {
                throw failure(mapping, attribute.name, "the constant \(expression.text ?? "") cannot become \(attribute.type.xcodeName)")
            }
            return .expression(MappingExpression(constant: literal))
        }
        throw failure(mapping, attribute.name, "Ferry runs attribute expressions $source.ATTRIBUTE and constants, not \(expression.text ?? "\(expression)"); write the rule in a written mapping")
    }

    /// A constant value as an expression literal; nil for values no literal spells.
    private static func literal(_ value: ArchivedValue) -> ExpressionLiteral? {
        switch value {
        case .null: .null
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .integer(let number): Int64(exactly: number).map(ExpressionLiteral.integer)
        case .real(let number): DecimalNotation.plain(number).map(ExpressionLiteral.decimal)
        default: nil
        }
    }

    /// Where a relationship mapping's links come from.
    private enum LinkSource {
        /// The links of a source relationship (`sourceInstances:$source.RELATIONSHIP`).
        case relationship(String)
        /// What another mapping made from the same source object (`sourceInstances:$source`).
        case sameSourceObject
    }

    /// Where a relationship mapping's links come from. Fails when the lookup's result would
    /// differ from Core Data's.
    private func linkSource(_ expression: ArchivedExpression, for relationship: Relationship,
                            _ mapping: CoreDataEntityMapping) throws(MappingError) -> LinkSource {
        let sourceName = mapping.sourceEntityName ?? ""
        guard let call = MappingExpressionForm.destinationInstances(in: expression) else {
            throw failure(mapping, relationship.name, "Ferry runs relationship expressions that ask $manager for destinationInstances of $source or $source.RELATIONSHIP, not \(expression.text ?? "\(expression)")")
        }
        let carried: String?
        let reached: [String]
        if case .variable("source") = call.sourceInstances {
            carried = nil
            reached = [sourceName]
        } else if let keyPath = MappingExpressionForm.sourceKeyPath(in: call.sourceInstances),
                  let from = source.allRelationships(of: sourceName).first(where: { $0.name == keyPath && !$0.isTransient }) {
            carried = from.name
            reached = source.hierarchy(below: from.destinationEntity).map(\.name)
        } else {
            throw failure(mapping, relationship.name, "its source objects \(call.sourceInstances.text ?? "?") are not $source or a relationship of \(sourceName)")
        }
        let kinds = Set(destination.hierarchy(below: relationship.destinationEntity).map(\.name))
        let tree = destination.rootEntity(of: relationship.destinationEntity)?.name
        for entity in reached {
            // What a key of an object of `entity` resolves to: the record a mapping made from it in the relationship's tree.
            let made = mappings(of: entity).filter { $0.destinationEntityName.flatMap { destination.rootEntity(of: $0)?.name } == tree }
            guard let only = made.first else { continue }
            switch call.lookup {
            case .entityMapping(let name):
                guard model.entityMapping(named: name) != nil else {
                    throw failure(mapping, relationship.name, "it names the entity mapping \(name), which the mapping model does not have")
                }
                guard only.name == name else {
                    throw failure(mapping, relationship.name, "Core Data links only what \(name) makes, but Ferry's links would also reach what \(only.name) makes from \(entity) objects")
                }
            case .sourceRelationship(let name):
                guard name == carried else {
                    throw failure(mapping, relationship.name, "it asks for the instances of source relationship '\(name)' but passes \(call.sourceInstances.text ?? "other objects")")
                }
                guard let made = only.destinationEntityName, kinds.contains(made) else {
                    throw failure(mapping, relationship.name, "\(only.name) makes \(only.destinationEntityName ?? "nothing"), which is not a \(relationship.destinationEntity): Core Data leaves it out, Ferry's links would not")
                }
            }
        }
        if case .entityMapping(let name) = call.lookup, let named = model.entityMapping(named: name),
           !(named.destinationEntityName.map(kinds.contains) ?? false) {
            throw failure(mapping, relationship.name, "\(name) makes \(named.destinationEntityName ?? "nothing"), which is not a \(relationship.destinationEntity)")
        }
        return carried.map(LinkSource.relationship) ?? .sameSourceObject
    }

    /// Whether a store keeps the links of `relationship` apart from its rows (a to-many without a
    /// to-one inverse: many-to-many, ordered, or without an inverse).
    static func keepsEdgesApart(_ relationship: String, of entity: String, in model: ManagedObjectModel) -> Bool {
        guard let from = model.allRelationships(of: entity).first(where: { $0.name == relationship }), from.isToMany else { return false }
        let inverse = model.inverse(of: from)
        return from.isOrdered || inverse == nil || inverse?.isToMany == true
    }

    /// Why a second mapping of a source entity cannot carry its links, or nil when it can: a store
    /// keeps the edges of a to-many relationship without a to-one inverse (many-to-many, ordered,
    /// no inverse) apart from its rows, and Ferry carries those along the first mapping only.
    func branchLinkProblem(_ branch: EntityMapping) -> String? {
        for rule in branch.relationships where Self.keepsEdgesApart(rule.source, of: branch.source, in: source) {
            return "it carries \(branch.source).\(rule.source), whose links a store keeps apart from its rows: Ferry carries those along the first mapping of \(branch.source) only"
        }
        return nil
    }

    /// Why two or more entity mappings of one source entity cannot run together, or nil when they can.
    func branchProblem(_ mappings: [CoreDataEntityMapping]) -> String? {
        guard mappings.count == 2 else {
            return "\(mappings.count) entity mappings take \(mappings[0].sourceEntityName ?? "") objects: Ferry runs at most two mappings of one source entity"
        }
        if let predicate = mappings[0].sourcePredicate, predicate != "TRUEPREDICATE" {
            return "\(mappings[0].name) filters its source objects (\(predicate)) and \(mappings[1].name) takes the same objects: Ferry runs a second mapping of a source entity only when the first takes every object"
        }
        let trees = mappings.map { $0.destinationEntityName.flatMap { destination.rootEntity(of: $0)?.name } }
        if trees[0] == trees[1] {
            return "\(mappings[0].name) and \(mappings[1].name) make records of one entity tree (\(trees[0] ?? "")) from the same objects: Ferry's links could not tell them apart"
        }
        return nil
    }

    private func failure(_ mapping: CoreDataEntityMapping, _ property: String?, _ reason: String) -> MappingError {
        .mappingModel(path: model.path, entityMapping: mapping.name, property: property, reason: reason)
    }
}
