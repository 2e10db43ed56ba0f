import FerryModel
import FerryStore

/// Runs a Core Data mapping model as a step of Ferry's chain: its entity mappings become
/// `MappingModel` rules with Core Data's semantics (coredata-format.md §10.3), so that the step
/// streams, verifies and composes with inferred and written steps like any other.
///
/// - Each entity mapping takes records of its exact source entity (sub-entities need mappings of
///   their own); source entities no mapping takes are dropped; add mappings make nothing by
///   themselves, and remove mappings nothing at all.
/// - The source filter predicate filters records (counted as filtered).
/// - An attribute expression `$source.ATTRIBUTE` copies the value (converting it where the types
///   differ and Ferry converts losslessly or checked), a constant is that value, nil (and every
///   destination attribute the mapping does not name) is the destination's default.
/// - A relationship expression `destinationInstancesForEntityMappingNamed:sourceInstances:` or
///   `destinationInstancesForSourceRelationshipNamed:sourceInstances:` over `$source.RELATIONSHIP`
///   carries that relationship's links, which resolve to the records made from the objects they
///   reach; over `$source` itself it links to what another mapping made from the same object.
///   Core Data sets a relationship's inverse with it: a relationship the mapping model sets on one
///   side only is carried from whichever side Ferry's records hold.
/// - A second entity mapping of one source entity makes a record of its own from each source
///   record (`MappingModel.branches`).
///
/// An entity mapping Ferry cannot run this way is refused (`RefusedMapping`): one with a custom
/// migration policy class (app code), an expression of another form, or a link lookup whose
/// result Ferry's links, which resolve by source key within an entity tree, would not reproduce
/// exactly. Records of its source entity that reach the step stop the migration with the reason;
/// a written mapping block for the entity replaces it.
public enum DeclarativeMapping {
    /// - Parameter writtenMappingPath: the step's written mapping file, named in the advice of refusals.
    public static func translate(_ model: CoreDataMappingModel, from source: ManagedObjectModel, to destination: ManagedObjectModel,
                                 writtenMappingPath: String) -> MappingModel {
        let context = DeclarativeEntityTranslation(model: model, source: source, destination: destination)
        var step = MappingModel(sourceVersion: source.name, destinationVersion: destination.name)
        step.mappingModelPath = model.path
        /// Records the first reason why records of `entity` cannot cross the step.
        func refuse(_ entity: String, _ mapping: String, policy: String? = nil, _ error: MappingError) {
            guard step.refusal(forSource: entity) == nil else { return }
            step.refused.append(RefusedMapping(source: entity, entityMapping: mapping, policyClass: policy, error: error))
        }
        func problem(_ mapping: String, _ reason: String) -> MappingError {
            .mappingModel(path: model.path, entityMapping: mapping, property: nil, reason: reason)
        }
        var taken: [String: [CoreDataEntityMapping]] = [:]
        var branchNames: [String] = []
        for mapping in context.runnable {
            guard let sourceEntity = mapping.sourceEntityName else { continue }
            taken[sourceEntity, default: []].append(mapping)
            if let policy = mapping.migrationPolicyClassName {
                refuse(sourceEntity, mapping.name, policy: policy, problem(mapping.name,
                       "it runs the migration policy class \(policy), app code Ferry cannot run: write what it does as a written mapping, an 'entity \(sourceEntity)' block in \"\(writtenMappingPath)\", which Ferry runs in its place"))
            }
            let translated: EntityMapping
            do { translated = try context.entityMapping(mapping) } catch {
                refuse(sourceEntity, mapping.name, error)
                continue
            }
            if step.mapping(forSource: sourceEntity) == nil {
                step.entities.append(translated)
            } else {
                step.branches.append(translated)
                branchNames.append(mapping.name)
            }
        }
        for (sourceEntity, mappings) in taken where mappings.count > 1 {
            if let reason = context.branchProblem(mappings) { refuse(sourceEntity, mappings[1].name, problem(mappings[1].name, reason)) }
        }
        completeInverses(of: &step, source: source, destination: destination)
        for (branch, name) in zip(step.branches, branchNames) {
            if let reason = context.branchLinkProblem(branch) { refuse(branch.source, name, problem(name, reason)) }
        }
        let fed = Set(step.entities.map(\.destination) + step.branches.map(\.destination))
        step.addedEntities = destination.entities.map(\.name).filter { !fed.contains($0) }
        step.droppedEntities = source.entities.map(\.name).filter { taken[$0] == nil }
        return step
    }

    /// Core Data sets a relationship's inverse with it, while Ferry's records carry one side of
    /// most relationships (a store's to-one keys): where a mapping carries a relationship whose
    /// inverse the mappings of the other side do not set, those mappings carry the inverse too,
    /// so that the links arrive whichever side the mapping model names.
    private static func completeInverses(of step: inout MappingModel, source: ManagedObjectModel, destination: ManagedObjectModel) {
        let carried = (step.entities + step.branches).flatMap { mapping in mapping.relationships.map { (mapping, $0) } }
        for (mapping, rule) in carried {
            guard let from = source.allRelationships(of: mapping.source).first(where: { $0.name == rule.source }),
                  let fromInverse = source.inverse(of: from),
                  let to = destination.allRelationships(of: mapping.destination).first(where: { $0.name == rule.destination }),
                  let toInverse = destination.inverse(of: to) else { continue }
            let reached = Set(source.hierarchy(below: from.destinationEntity).map(\.name))
            let kinds = Set(destination.hierarchy(below: to.destinationEntity).map(\.name))
            func complete(_ other: inout EntityMapping) {
                guard reached.contains(other.source), kinds.contains(other.destination),
                      !other.relationships.contains(where: { $0.destination == toInverse.name || $0.source == fromInverse.name }) else { return }
                other.relationships.append(RelationshipMapping(destination: toInverse.name, source: fromInverse.name, origin: .mappingModel))
            }
            for index in step.entities.indices { complete(&step.entities[index]) }
            for index in step.branches.indices { complete(&step.branches[index]) }
        }
    }
}
