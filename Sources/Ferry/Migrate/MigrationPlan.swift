import FerryMigration
import FerryModel

/// What `ferry plan` shows before anything is written: the chain of versions (the way of each
/// source version whose records take their own) and, per step and entity, where every
/// destination attribute and relationship comes from.
public struct MigrationPlan: Sendable, Codable, Equatable {
    public struct Step: Sendable, Codable, Equatable {
        public var from: String
        public var to: String
        /// The Core Data mapping model the step runs, when it runs one.
        public var mappingModel: String?
        /// Entity mappings of that model Ferry cannot run, each with why and what to do instead:
        /// records of their source entities that reach the step stop the migration.
        public var refused: [String]
        /// Mappings from source entities; a source entity with two (a mapping model's) is listed twice.
        public var entities: [EntityStep]
        public var dropped: [String]
        public var added: [String]
        public var suggestions: [String]
    }

    public struct EntityStep: Sendable, Codable, Equatable {
        public var source: String
        public var destination: String
        public var filter: String?
        public var duplicates: String?
        /// Destination attribute → its rule in words (`copy fileName`, `convert priority Integer 16 → Integer 32`).
        public var attributes: [Rule]
        /// Destination relationship → `links of SOURCE`, or `make Entity(attribute: expression, …)`
        /// for records made from values.
        public var relationships: [Rule]
        /// Source attributes no rule reads: their values are not carried.
        public var droppedAttributes: [String]
        /// Destination relationship → the entity whose records a written rule makes for it.
        public var madeEntities: [String: String]
        /// The mapping's notes, `TEXT if CONDITION`: records counted and reported, not changed.
        public var notes: [String]
    }

    public struct Rule: Sendable, Codable, Equatable {
        public var destination: String
        public var rule: String
        /// `inferred` or `written`.
        public var origin: String
    }

    public var model: String
    /// The versions records go through, oldest first: the way of each version whose records take
    /// their own (`MigrationChain.chains`); one without sources.
    public var chains: [[String]]
    /// Whether the chain is every version's (a plan without sources: a store of the oldest
    /// version), not the stops a run takes: a run infers straight across the versions where
    /// nothing must happen, so its rules can differ from these steps'.
    public var everyVersion: Bool
    public var steps: [Step]
    /// Files beside the model that look like a written mapping of it but name no two of its
    /// versions (`MigrationPlanner.misnamedMappingFiles`), mappings found that no step reads
    /// (`UnreadMappings`), and records that would be rejected for a required relationship.
    public var warnings: [String]

    /// The plan of a versioned model up to its current version (or `target`), running the
    /// given Core Data mapping models (and those beside the model) where they map a step: the
    /// chain of a store of the oldest version, every version a step (`everyVersion`).
    public init(modelPath: String, target: String? = nil, variables: [String: String] = [:], mappingModels: [String] = []) throws(MigrateError) {
        var request = MigrateRequest(sources: [], modelPath: modelPath, targetVersion: target, outputPath: "", variables: variables)
        request.mappingModels = mappingModels
        try self.init(request: request)
    }

    /// The plan of what `request` runs: the chain `ferry migrate` takes for its sources (the way
    /// of each one's version) and the rules of its steps, as its value rules and failure policy
    /// (`--lenient`) make them; without sources, every version's step.
    public init(request: MigrateRequest) throws(MigrateError) {
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        let planner = MigrationPlanner(bundle: bundle, request: request)
        let (chain, unreadMappings) = try planner.planned(options: request.files.coercion)
        model = bundle.name
        everyVersion = request.sources.isEmpty
        warnings = planner.misnamedMappingFiles() + unreadMappings + Self.unfilledRequired(chain) + Self.unheldLinks(chain)
        chains = chain.chains
        steps = chain.steps.enumerated().map { index, step in
            let mappings = step.entities + step.branches
            return Step(from: step.sourceVersion, to: step.destinationVersion, mappingModel: step.mappingModelPath,
                        refused: step.refused.map(\.error.description),
                        entities: mappings.map { Self.entityStep($0, source: chain.versions[index]) },
                        dropped: step.droppedEntities, added: step.addedEntities, suggestions: step.suggestions)
        }
    }

    /// For a store of each older version, the records that would be rejected for a required
    /// relationship nothing fills (`MigrationChain.unfilledRequired`): a plan says it before a
    /// run finds it.
    private static func unfilledRequired(_ chain: MigrationChain) -> [String] {
        var lines: [String] = []
        for version in chain.versions.indices.dropLast() {
            let model = chain.versions[version]
            let entities = Set(model.entities.map(\.name))
            for entity in model.entities where !entity.isAbstract {
                guard let final = chain.route(entity: entity.name, from: version).finalEntity else { continue }
                for name in chain.unfilledRequired(of: final, for: entity.name, from: version, sources: [version: entities]) {
                    lines.append("a store of \(model.name): every \(entity.name) record is rejected, as \(final).\(name) is required in "
                        + "\(chain.last.name) and nothing fills it (a written rule can make its destination, or the relationship be optional)")
                }
            }
        }
        return lines
    }

    /// For a store of each older version, the links the last version cannot hold
    /// (`MigrationChain.unheldPairs`), per relationship and destination entity: a migration
    /// drops them and counts them, and a plan says it before.
    private static func unheldLinks(_ chain: MigrationChain) -> [String] {
        var lines: [String] = []
        for version in chain.versions.indices.dropLast() {
            let model = chain.versions[version]
            for entity in model.entities where !entity.isAbstract {
                for relationship in model.allRelationships(of: entity.name) where !relationship.isTransient {
                    let destinations = model.hierarchy(below: relationship.destinationEntity).filter { !$0.isAbstract }.map(\.name)
                    let unheld = Dictionary(grouping: destinations.compactMap { destination in
                        chain.unheldPairs(relationship.name, of: entity.name, to: destination, from: version).map { (destination, $0) }
                    }, by: { $0.1 })
                    for (reason, ends) in unheld.sorted(by: { $0.key < $1.key }) {
                        let to = ends.count == destinations.count ? "" : " to " + ends.map(\.0).joined(separator: ", ")
                        lines.append("a store of \(model.name): links of \(entity.name).\(relationship.name)\(to) are not carried: \(reason)")
                    }
                }
            }
        }
        return lines
    }

    private static func entityStep(_ mapping: EntityMapping, source: ManagedObjectModel) -> EntityStep {
        let read = mapping.readAttributes
        let dropped = source.allAttributes(of: mapping.source).filter { !$0.isTransient && !read.contains($0.name) }.map(\.name)
        return EntityStep(
            source: mapping.source, destination: mapping.destination, filter: mapping.filter?.text,
            duplicates: mapping.duplicates.map { policy in (mapping.identity.map { "on \($0.joined(separator: ", ")): " } ?? "") + policy.rawValue },
            attributes: mapping.attributes.map { attribute in
                var text = describe(attribute.rule)
                if attribute.onFailure == .null { text += " (nil when it fails)" }
                return Rule(destination: attribute.destination, rule: text, origin: attribute.origin.rawValue)
            },
            relationships: mapping.relationships.map { Rule(destination: $0.destination, rule: "links of \($0.source)", origin: $0.origin.rawValue) }
                + mapping.sourceRecordLinks.map { name in
                    Rule(destination: name, rule: "what the step makes from the same source record", origin: mapping.origin.rawValue)
                }
                + mapping.madeRecords.map { made in
                    Rule(destination: made.relationship, rule: "make \(made)" + (made.onFailure == .null ? " (none when it fails)" : ""),
                         origin: MappingOrigin.written.rawValue)
                },
            droppedAttributes: dropped,
            madeEntities: Dictionary(mapping.madeRecords.map { ($0.relationship, $0.entity) }, uniquingKeysWith: { first, _ in first }),
            notes: mapping.notes.map { "\"\($0.text)\" if \($0.condition)" })
    }

    static func describe(_ rule: ValueRule) -> String {
        switch rule {
        case .copy(let source): "copy \(source)"
        case let .convert(source, from, to):
            "convert \(source) \(from.xcodeName) → \(to.xcodeName) (\(ValueConversion.kind(from: from, to: to)?.rawValue ?? "not inferable: a value rejects its record"))"
        case .defaultValue: "default"
        case .expression(let expression): "= \(expression)"
        }
    }
}
