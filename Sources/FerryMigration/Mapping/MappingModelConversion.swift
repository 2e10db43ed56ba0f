import FerryModel

/// Writes a Core Data mapping model as the equivalent written mapping (`MappingFile`'s format),
/// for `ferry mapping convert`: every entity mapping Ferry runs becomes an `entity` block that
/// spells out each destination attribute and relationship, so that the file, applied on top of
/// the inferred mapping, runs as the mapping model does; source entities no mapping takes are
/// `drop`ped. What the language cannot say (a custom migration policy class, which is app code,
/// or an entity mapping Ferry refuses) becomes a `todo` line in the block: the file loads, and
/// records of that entity are refused until the block is finished and the line deleted.
public enum MappingModelConversion {
    /// The file's text. `source` and `destination` are the two versions the model maps.
    public static func text(of model: CoreDataMappingModel, from source: ManagedObjectModel, to destination: ManagedObjectModel) -> String {
        let fileName = "\(source.name) to \(destination.name).mapping"
        let step = DeclarativeMapping.translate(model, from: source, to: destination, writtenMappingPath: fileName)
        var out = """
            # Ferry mapping, converted from the Core Data mapping model \(model.path.split(separator: "/").last.map(String.init) ?? model.path).
            # Save it beside the model as "\(fileName)": plan and migrate then run it in place of the
            # mapping model. Lines marked todo are left to write; until they are deleted, records of
            # their entity are refused.
            mapping "\(source.name)" -> "\(destination.name)"

            """
        /// The destination of each source entity's block, once written.
        var blocks: [String: String] = [:]
        for entityMapping in model.entityMappings {
            guard let sourceName = entityMapping.sourceEntityName else {
                out += "\n# entity mapping \(entityMapping.name) (add) makes no \(entityMapping.destinationEntityName ?? "record") by itself\n"
                continue
            }
            guard entityMapping.destinationEntityName != nil, entityMapping.type != .remove else { continue }
            if let first = blocks[sourceName] {
                // A block of the same entities continues the first one: the todo refuses its records.
                out += "\n# entity mapping \(entityMapping.name) makes a second record from each \(sourceName) object, which a block cannot say\n"
                out += header(sourceName, first)
                out += "  todo \"make what \(entityMapping.name) makes, e.g. with new \(entityMapping.destinationEntityName ?? "Entity")(…) on a relationship\"\n"
                continue
            }
            let translated = step.mapping(forSource: sourceName)
            let destinationName = translated?.destination ?? entityMapping.destinationEntityName ?? sourceName
            blocks[sourceName] = destinationName
            out += "\n" + header(sourceName, destinationName)
            if let translated { out += block(translated, destination: destination) }
            if let refusal = step.refusal(forSource: sourceName) {
                let read = Set(translated?.attributes.flatMap(\.rule.sourceAttributes) ?? [])
                let unread = source.allAttributes(of: sourceName).filter { !$0.isTransient && !read.contains($0.name) }.map(\.name)
                out += todo(for: entityMapping, refusal: refusal, destination: destination, unread: unread)
            }
        }
        for name in step.droppedEntities { out += "\ndrop \(name)   # no entity mapping takes its objects\n" }
        return out
    }

    /// `entity SOURCE [-> DESTINATION]`.
    private static func header(_ source: String, _ destination: String) -> String {
        "entity \(source)" + (source == destination ? "" : " -> \(destination)") + "\n"
    }

    /// The two versions a mapping model maps, chosen by their entity version hashes as Core Data
    /// chooses: two consecutive versions of one bundle when some match, else any two versions of
    /// the bundles (CoreStore keeps a mapping model back to an older version); nil when none do.
    public static func versions(mapped model: CoreDataMappingModel, in bundles: [ModelBundle])
        -> (source: ManagedObjectModel, destination: ManagedObjectModel)? {
        let hashed = bundles.map { bundle in bundle.versions.map { ($0, VersionHasher.hashes(of: $0).entityHashes) } }
        for versions in hashed {
            for (from, to) in zip(versions, versions.dropFirst()) where model.maps(from: from.1, to: to.1) { return (from.0, to.0) }
        }
        let all = hashed.flatMap { $0 }
        for from in all {
            for to in all where from.0.name != to.0.name && model.maps(from: from.1, to: to.1) { return (from.0, to.0) }
        }
        return nil
    }

    /// The `todo` line of a refused entity mapping and, for a policy class, what is left to write.
    /// It comes last in the block, so that rules written in its place win over the ones above.
    /// `unread`: the source attributes no rule above reads, which the policy may have used.
    private static func todo(for mapping: CoreDataEntityMapping, refusal: RefusedMapping, destination: ManagedObjectModel,
                             unread: [String]) -> String {
        guard let policy = refusal.policyClass else {
            return "  # Ferry cannot run this entity mapping as the mapping model says it:\n  #   \(refusal.error.description)\n"
                + "  todo \"write what entity mapping \(mapping.name) does, then delete this line\"\n"
        }
        let destinationName = mapping.destinationEntityName ?? ""
        let added = destination.allRelationships(of: destinationName).filter { relationship in
            !mapping.relationshipMappings.contains { $0.name == relationship.name && $0.valueExpression != nil }
        }.map { "\($0.name) (\($0.destinationEntity))" }
        var text = """
              # ▶ TO FILL IN. Entity mapping \(mapping.name) ran the migration policy class \(policy),
              #   app code that Ferry cannot run. The rules above are what the mapping model itself declares
              #   (the policy's super call). Write here, in place of the todo line, what the policy did to each
              #   \(mapping.sourceEntityName ?? "") object (a rule here wins over one above for the same attribute):
              #     values computed from it      attribute = date(text, "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"), prefix(text, 4) + "..."
              #     a record found or created    relationship = Entity(key: attribute, …)
              #     a record of its own          relationship = new Entity(attribute: expression, …)

            """
        if !added.isEmpty { text += "  #   Not set by the mapping model: \(added.joined(separator: ", ")).\n" }
        if !unread.isEmpty { text += "  #   Read by no rule above: \(unread.joined(separator: ", ")).\n" }
        return text + "  todo \"\(policy) is not written yet: write what it does in this block\"\n"
    }

    /// The rules of one entity mapping: every destination attribute and relationship.
    private static func block(_ mapping: EntityMapping, destination: ManagedObjectModel) -> String {
        var out = ""
        if let filter = mapping.filter { out += "  where \(filter.text)\n" }
        for attribute in mapping.attributes { out += "  \(attribute.destination) = \(MappingFileWriter.value(of: attribute.rule))\n" }
        for relationship in destination.allRelationships(of: mapping.destination) where !relationship.isTransient {
            if let carried = mapping.relationships.first(where: { $0.destination == relationship.name }) {
                out += "  \(relationship.name) <- \(carried.source)\n"
            } else if mapping.sourceRecordLinks.contains(relationship.name) {
                out += "  # \(relationship.name): the mapping model links it to what another mapping makes from the same object\n"
                out += "  todo \"link \(relationship.name) to what the other mapping makes from the same object\"\n"
            } else {
                out += "  \(relationship.name) <- nil\n"
            }
        }
        return out
    }
}
