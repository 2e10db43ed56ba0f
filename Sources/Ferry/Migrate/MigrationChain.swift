import FerryMigration
import FerryModel

/// The versions of a model in order and the mapping between each pair, with the schemas,
/// routes and compiled transforms made on first use.
final class MigrationChain {
    let versions: [ManagedObjectModel]
    /// `steps[i]` takes records of `versions[i]` to `versions[i + 1]`.
    let steps: [MappingModel]
    private let options: CoercionOptions
    private let variables: [String: String]
    private var schemas: [VersionEntity: RecordSchema] = [:]
    private var transforms: [VersionEntity: EntityTransform] = [:]
    private var routes: [VersionEntity: Route] = [:]

    /// An entity of one version (or of the source side of one step).
    private struct VersionEntity: Hashable {
        let version: Int
        let entity: String
    }

    /// What became of a record carried to the last version.
    enum Outcome {
        /// `made`: the records mappings made from its values on the way, each with the index of
        /// the version it was made in (the destination of its step), still to be carried from there.
        case record(Record, entity: String, converted: Int, made: [(version: Int, record: EmbeddedRecord)])
        case reject(Reject)
        /// Filtered out by a mapping, or its entity has no place in a later version.
        case filtered
    }

    /// The way of one source entity of one version through every later step: its entity
    /// mappings in order, each step's transform compiled when the first record reaches it.
    final class Route {
        /// The version records start in, and the entity mapping of each step from there.
        let first: Int
        let mappings: [EntityMapping]
        fileprivate var transforms: [EntityTransform?]
        /// The entity records become in the last version; nil when a step has no mapping for
        /// the entity, so that records reaching that step are filtered.
        let finalEntity: String?

        fileprivate init(first: Int, mappings: [EntityMapping], finalEntity: String?) {
            self.first = first
            self.mappings = mappings
            self.finalEntity = finalEntity
            transforms = Array(repeating: nil, count: mappings.count)
        }
    }

    init(versions: [ManagedObjectModel], steps: [MappingModel], options: CoercionOptions, variables: [String: String]) {
        self.versions = versions
        self.steps = steps
        self.options = options
        self.variables = variables
    }

    var last: ManagedObjectModel { versions[versions.count - 1] }

    func schema(version: Int, entity: String) -> RecordSchema? {
        let key = VersionEntity(version: version, entity: entity)
        if let known = schemas[key] { return known }
        guard let made = RecordSchema(model: versions[version], entityName: entity) else { return nil }
        schemas[key] = made
        return made
    }

    /// The route of records of `entity` in version `from` (made once per entity and version).
    func route(entity: String, from: Int) -> Route {
        let key = VersionEntity(version: from, entity: entity)
        if let known = routes[key] { return known }
        var mappings: [EntityMapping] = []
        var name = entity
        var complete = true
        for step in from..<steps.count {
            guard let mapping = steps[step].mapping(forSource: name) else {
                complete = false
                break
            }
            mappings.append(mapping)
            name = mapping.destination
        }
        let made = Route(first: from, mappings: mappings, finalEntity: complete ? name : nil)
        routes[key] = made
        return made
    }

    /// Takes a record through every step of its route. Records a step makes from its values are
    /// returned with the record, not carried further here: the caller carries each by the route
    /// of its own entity from the version it was made in.
    func carry(_ record: Record, route: Route) throws(MappingError) -> Outcome {
        var current = record
        var converted = 0
        var made: [(version: Int, record: EmbeddedRecord)] = []
        for index in route.mappings.indices {
            let transform: EntityTransform
            if let compiled = route.transforms[index] {
                transform = compiled
            } else {
                transform = try self.transform(step: route.first + index, mapping: route.mappings[index])
                route.transforms[index] = transform
            }
            switch transform.apply(current) {
            case let .record(next, count):
                current = next
                converted += count
                made += next.embedded.map { (route.first + index + 1, $0) }
                current.embedded = []
            case .reject(let reject):
                return .reject(reject)
            case .filtered:
                return .filtered
            }
        }
        guard let entity = route.finalEntity else { return .filtered }
        return .record(current, entity: entity, converted: converted, made: made)
    }

    /// The entity and relationship a relationship of `entity` in version `from` becomes in the
    /// last version, or nil when a step drops it.
    func finalRelationship(_ relationship: String, of entity: String, from: Int) -> (entity: String, relationship: String)? {
        var names = (entity: entity, relationship: relationship)
        for step in from..<steps.count {
            guard let mapping = steps[step].mapping(forSource: names.entity),
                  let carried = mapping.relationships.first(where: { $0.source == names.relationship }) else { return nil }
            names = (mapping.destination, carried.destination)
        }
        return names
    }

    private func transform(step: Int, mapping: EntityMapping) throws(MappingError) -> EntityTransform {
        let key = VersionEntity(version: step, entity: mapping.source)
        if let known = transforms[key] { return known }
        guard let source = schema(version: step, entity: mapping.source),
              let destination = schema(version: step + 1, entity: mapping.destination) else {
            throw .model("\(mapping.source) → \(mapping.destination): entity missing in \(versions[step].name) or \(versions[step + 1].name)")
        }
        let made = try EntityTransform(mapping: mapping, source: source, destination: destination, options: options, variables: variables,
                                       destinationModel: versions[step + 1])
        transforms[key] = made
        return made
    }
}
