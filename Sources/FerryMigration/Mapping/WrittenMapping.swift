import FerryModel
import FerryStore

/// Puts a written mapping file on top of an inferred mapping (or a mapping model's step), checking
/// every name and type against the two models so that a mistake is reported with its line, not
/// per record. A block for a source entity whose mapping-model entity mapping Ferry refused
/// (`RefusedMapping`) replaces that entity mapping.
public enum WrittenMapping {
    /// - Parameter defaultFailure: what a failing value does where a rule does not say
    ///   (`on error nil` / `on error reject`): reject (the default) or, leniently, nil.
    public static func apply(_ file: MappingFile, to inferred: MappingModel, source: ManagedObjectModel,
                             destination: ManagedObjectModel, defaultFailure: FailurePolicy = .reject) throws(MappingError) -> MappingModel {
        var mapping = inferred
        if let versions = file.versions, versions != (source.name, destination.name) {
            throw .file(path: file.path, line: 1, column: 1, reason:
                "the file maps \"\(versions.from)\" -> \"\(versions.to)\", not \"\(source.name)\" -> \"\(destination.name)\"")
        }
        for block in file.entities {
            guard let origin = source.entity(named: block.source) else {
                throw .file(path: file.path, line: block.line, column: 8, reason: "\(source.name) has no entity '\(block.source)'")
            }
            guard let target = destination.entity(named: block.destination), !target.isAbstract else {
                throw .file(path: file.path, line: block.line, column: 8, reason: "\(destination.name) has no concrete entity '\(block.destination)'")
            }
            var entity: EntityMapping
            if let existing = mapping.entities.firstIndex(where: { $0.source == block.source }),
               mapping.entities[existing].destination == block.destination {
                entity = mapping.entities.remove(at: existing)
            } else {
                mapping.entities.removeAll { $0.source == block.source }
                var ignored: [String] = []
                var entityMap = MappingInference.entityMap(of: mapping, source: source, destination: destination)
                entityMap[block.source] = block.destination
                entity = MappingInference.entityMapping(origin, target, source: source, destination: destination,
                                                        entityMap: entityMap, suggestions: &ignored)
            }
            entity.origin = .written
            try applyRules(block, to: &entity, origin: origin, target: target, source: source, destination: destination,
                           path: file.path, defaultFailure: defaultFailure)
            let written = Set(block.rules.map { "\(block.destination).\($0.attribute) " })
            mapping.suggestions.removeAll { hint in written.contains { hint.hasPrefix($0) } || hint.hasPrefix("\(block.source) becomes abstract ") }
            mapping.unmappedEntities[block.source] = nil
            mapping.entities.append(entity)
            mapping.droppedEntities.removeAll { $0 == block.source }
            mapping.refused.removeAll { $0.source == block.source }
            mapping.addedEntities.removeAll { $0 == block.destination }
        }
        mapping.suggestions += unfollowedSubentities(of: file, in: source)
        // After every block: a later block of the same entity does not lift an earlier one's todo.
        for block in file.entities {
            guard let todo = block.todo, mapping.refusal(forSource: block.source) == nil else { continue }
            mapping.refused.append(RefusedMapping(source: block.source, entityMapping: "entity \(block.source)", error: .file(
                path: file.path, line: todo.line, column: 3, reason: "the 'entity \(block.source)' block is unfinished: \(todo.text); delete the todo line once the block does it")))
        }
        for (name, line) in file.dropped {
            guard source.entity(named: name) != nil else {
                throw .file(path: file.path, line: line, column: 6, reason: "\(source.name) has no entity '\(name)'")
            }
            guard !file.entities.contains(where: { $0.source == name }) else {
                throw .file(path: file.path, line: line, column: 6, reason: "\(name) is dropped and mapped by an 'entity \(name)' block")
            }
            mapping.entities.removeAll { $0.source == name }
            mapping.branches.removeAll { $0.source == name }
            mapping.refused.removeAll { $0.source == name }
            if !mapping.droppedEntities.contains(name) { mapping.droppedEntities.append(name) }
        }
        let fed = Set((mapping.entities + mapping.branches).map(\.destination))
        for entity in destination.entities where !fed.contains(entity.name) && !mapping.addedEntities.contains(entity.name) {
            mapping.addedEntities.append(entity.name)
        }
        mapping.entities.sort { $0.destination < $1.destination }
        return mapping
    }

    /// Hints for the blocks whose rules do not reach their entity's sub-entities: a block maps its
    /// source entity's own records (as each entity mapping of a mapping model takes its exact
    /// entity), so `entity Vehicle` with `where plate != "C1"` still writes the Car C1. Each
    /// sub-entity (at any depth) without a block of its own is named.
    private static func unfollowedSubentities(of file: MappingFile, in source: ManagedObjectModel) -> [String] {
        let mapped = Set(file.entities.map(\.source)).union(file.dropped.map(\.entity))
        return file.entities.compactMap { block in
            guard !block.rules.isEmpty || block.filter != nil || block.duplicates != nil || !block.notes.isEmpty else { return nil }
            var unmapped: [String] = []
            var next = source.subentities(of: block.source)
            while let entity = next.first {
                next.removeFirst()
                if !mapped.contains(entity.name) { unmapped.append(entity.name) }
                next += source.subentities(of: entity.name)
            }
            guard !unmapped.isEmpty else { return nil }
            let names = unmapped.joined(separator: ", ")
            return "the 'entity \(block.source)' block (\(file.path):\(block.line)) maps \(block.source)'s own records only: "
                + "those of \(names) follow none of its rules (an 'entity \(unmapped[0])' block of their own does)"
        }
    }

    private static func applyRules(_ block: MappingFile.EntityBlock, to entity: inout EntityMapping, origin: Entity, target: Entity,
                                   source: ManagedObjectModel, destination: ManagedObjectModel, path: String,
                                   defaultFailure: FailurePolicy) throws(MappingError) {
        let sourceTypes = source.allAttributes(of: origin.name).typesByName
        let targetAttributes = destination.allAttributes(of: target.name)
        for rule in block.rules {
            guard let attribute = targetAttributes.first(where: { $0.name == rule.attribute }) else {
                throw .file(path: path, line: rule.line, column: rule.column, reason: "\(target.name) has no attribute '\(rule.attribute)'")
            }
            let mapped = AttributeMapping(destination: attribute.name,
                                          rule: try valueRule(rule, for: attribute, of: target, sourceTypes: sourceTypes, path: path),
                                          origin: .written, onFailure: rule.onFailure ?? defaultFailure)
            entity.attributes.removeAll { $0.destination == attribute.name }
            entity.attributes.append(mapped)
        }
        let order = targetAttributes.map(\.name)
        entity.attributes.sort { (order.firstIndex(of: $0.destination) ?? 0) < (order.firstIndex(of: $1.destination) ?? 0) }
        if let filter = block.filter {
            do {
                let parsed = try RecordFilter(filter.text)
                _ = try PredicateEvaluator(parsed.predicate, types: sourceTypes, entity: origin.name,
                                           relationships: Set(source.allRelationships(of: origin.name).map(\.name)))
                entity.filter = parsed
            } catch {
                throw .file(path: path, line: filter.line, column: filter.column, reason: error.description)
            }
        }
        if let policy = block.duplicates { entity.duplicates = policy }
        for note in block.notes {
            // A condition over attributes the source lacks, or one that can never be a boolean, fails now.
            let type: AttributeType?
            do { type = try note.condition.resultType(attributes: sourceTypes) } catch {
                throw .file(path: path, line: error.line, column: error.column, reason: error.message)
            }
            if let type, type != .boolean {
                throw .file(path: path, line: note.line, column: 1, reason: "a note's condition must be true or false, not \(type.xcodeName)")
            }
            entity.notes.append(note)
        }
        if let identity = block.identity {
            for name in identity.attributes where !targetAttributes.contains(where: { $0.name == name }) {
                throw .file(path: path, line: identity.line, column: 1, reason: "\(target.name) has no attribute '\(name)' to be unique")
            }
            entity.identity = identity.attributes
        }
        for link in block.links {
            guard destination.allRelationships(of: target.name).contains(where: { $0.name == link.destination }) else {
                throw .file(path: path, line: link.line, column: 1, reason: "\(target.name) has no relationship '\(link.destination)'")
            }
            entity.relationships.removeAll { $0.destination == link.destination }
            entity.sourceRecordLinks.removeAll { $0 == link.destination }
            guard let linkSource = link.source else { continue }
            if entity.relationships.contains(where: { $0.source == linkSource }),
               DeclarativeEntityTranslation.keepsEdgesApart(linkSource, of: origin.name, in: source) {
                throw .file(path: path, line: link.line, column: 1, reason: "\(origin.name).\(linkSource) already feeds another relationship, and a store keeps its links apart from its rows: carry it into one")
            }
            guard source.allRelationships(of: origin.name).contains(where: { $0.name == linkSource }) else {
                throw .file(path: path, line: link.line, column: 1, reason: "\(origin.name) has no relationship '\(linkSource)'")
            }
            entity.relationships.append(RelationshipMapping(destination: link.destination, source: linkSource, origin: .written))
        }
        for constructor in block.constructors {
            let made = try madeRecordRule(constructor, target: target, sourceTypes: sourceTypes, destination: destination, path: path,
                                          defaultFailure: defaultFailure)
            entity.relationships.removeAll { $0.destination == made.relationship }
            entity.madeRecords.removeAll { $0.relationship == made.relationship }
            entity.madeRecords.append(made)
        }
    }

    /// The rule of one `ATTRIBUTE = …` line: the default for `default`; a copy (or a conversion)
    /// for a bare source attribute, which runs without evaluating an expression; otherwise the
    /// expression, whose type must be able to become the attribute's.
    private static func valueRule(_ rule: MappingFile.Rule, for attribute: Attribute, of target: Entity,
                                  sourceTypes: [String: AttributeType], path: String) throws(MappingError) -> ValueRule {
        guard let expression = rule.expression else { return .defaultValue }
        let resultType: AttributeType?
        do { resultType = try expression.resultType(attributes: sourceTypes) } catch {
            throw .file(path: path, line: error.line, column: error.column, reason: error.message)
        }
        guard let resultType else { return .expression(expression) }
        if resultType != attribute.type, ValueConversion.kind(from: resultType, to: attribute.type) == nil {
            throw .file(path: path, line: rule.line, column: rule.column, reason:
                "the expression gives \(resultType.xcodeName), which cannot become \(attribute.type.xcodeName) (\(target.name).\(attribute.name))")
        }
        guard case .attribute(let name) = expression.root.kind, let from = sourceTypes[name] else { return .expression(expression) }
        if from == attribute.type { return .copy(source: name) }
        return ValueConversion.kind(from: from, to: attribute.type) == nil ? .expression(expression) : .convert(source: name, from: from, to: attribute.type)
    }

    /// Checks a constructor against the destination model: the relationship is a to-one of the
    /// mapped entity (a to-many with `for $ in split(TEXT, "SEPARATOR")`, TEXT giving text), the entity is its destination (or a sub-entity), every argument names an
    /// attribute of it and gives a value that can become its type, and when the entity is unique
    /// on some attributes, one of its constraints is given in full (else no two made records
    /// could ever be found equal).
    private static func madeRecordRule(_ constructor: MappingFile.Constructor, target: Entity, sourceTypes: [String: AttributeType],
                                       destination: ManagedObjectModel, path: String,
                                       defaultFailure: FailurePolicy) throws(MappingError) -> MadeRecordRule {
        func failure(_ reason: String) -> MappingError { .file(path: path, line: constructor.line, column: constructor.column, reason: reason) }
        guard let relationship = destination.allRelationships(of: target.name).first(where: { $0.name == constructor.relationship }) else {
            throw failure("\(target.name) has no relationship '\(constructor.relationship)'")
        }
        switch (relationship.isToMany, constructor.parts) {
        case (true, nil):
            throw failure("\(target.name).\(relationship.name) is to-many; make one \(constructor.entity) per part of a text with \(constructor.entity)(…) for $ in split(TEXT, \"SEPARATOR\")")
        case (false, _?):
            throw failure("\(target.name).\(relationship.name) is to-one; \(constructor.entity)(…) for $ in split(…) makes records for a to-many relationship")
        case (true, let parts?):
            let textType: AttributeType?
            do { textType = try parts.text.resultType(attributes: sourceTypes) } catch {
                throw .file(path: path, line: error.line, column: error.column, reason: error.message)
            }
            if let textType, textType != .string {
                throw .file(path: path, line: constructor.line, column: parts.text.root.column, reason: "split(\(parts.text), …) needs text, but \(parts.text) gives \(textType.xcodeName)")
            }
        case (false, nil):
            break
        }
        guard let made = destination.entity(named: constructor.entity), !made.isAbstract,
              destination.ancestry(of: made.name).contains(where: { $0.name == relationship.destinationEntity }) else {
            throw failure("\(target.name).\(relationship.name) links to \(relationship.destinationEntity): '\(constructor.entity)' is not a concrete \(relationship.destinationEntity) in \(destination.name)")
        }
        let attributes = destination.allAttributes(of: made.name)
        for argument in constructor.arguments {
            guard let attribute = attributes.first(where: { $0.name == argument.attribute && !$0.isTransient }) else {
                throw failure("\(made.name) has no attribute '\(argument.attribute)'")
            }
            let resultType: AttributeType?
            do { resultType = try argument.expression.resultType(attributes: sourceTypes, allowingPart: constructor.parts != nil) } catch {
                throw .file(path: path, line: error.line, column: error.column, reason: error.message)
            }
            if let resultType, resultType != attribute.type, ValueConversion.kind(from: resultType, to: attribute.type) == nil {
                throw failure("\(argument.attribute): the expression gives \(resultType.xcodeName), which cannot become \(attribute.type.xcodeName) (\(made.name).\(attribute.name))")
            }
        }
        let given = Set(constructor.arguments.map(\.attribute))
        let constraints = destination.ancestry(of: made.name).flatMap(\.uniquenessConstraints)
        if !constraints.isEmpty, !constraints.contains(where: { Set($0).isSubset(of: given) }) {
            let names = constraints.map { "(\($0.joined(separator: ", ")))" }.joined(separator: " or ")
            throw failure("\(made.name) is unique on \(names): give those attributes in \(made.name)(…) so that equal records are found")
        }
        return MadeRecordRule(relationship: relationship.name, entity: made.name, arguments: constructor.arguments, parts: constructor.parts,
                              alwaysNew: constructor.alwaysNew, onFailure: constructor.onFailure ?? defaultFailure,
                              location: "\(path):\(constructor.line):\(constructor.column)")
    }
}
