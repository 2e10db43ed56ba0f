import FerryMigration
import FerryModel

/// The versions of a model in order and the mapping between each pair, with the schemas and
/// compiled transforms made on first use.
final class MigrationChain {
    let versions: [ManagedObjectModel]
    /// `steps[i]` takes records of `versions[i]` to `versions[i + 1]`.
    let steps: [MappingModel]
    private let options: CoercionOptions
    private let variables: [String: String]
    private var schemas: [String: RecordSchema] = [:]
    private var transforms: [String: EntityTransform] = [:]

    /// What became of a record carried to the last version.
    enum Outcome {
        case record(Record, entity: String, converted: Int)
        case reject(Reject)
        /// Filtered out by a mapping, or its entity has no place in a later version.
        case filtered
    }

    init(versions: [ManagedObjectModel], steps: [MappingModel], options: CoercionOptions, variables: [String: String]) {
        self.versions = versions
        self.steps = steps
        self.options = options
        self.variables = variables
    }

    var last: ManagedObjectModel { versions[versions.count - 1] }

    func schema(version: Int, entity: String) -> RecordSchema? {
        let key = "\(version)/\(entity)"
        if let known = schemas[key] { return known }
        guard let made = RecordSchema(model: versions[version], entityName: entity) else { return nil }
        schemas[key] = made
        return made
    }

    /// Takes a record of `entity` in version `from` through every later step.
    func carry(_ record: Record, entity: String, from: Int) throws(MappingError) -> Outcome {
        var current = record
        var name = entity
        var converted = 0
        for step in from..<steps.count {
            guard let mapping = steps[step].mapping(forSource: name) else { return .filtered }
            switch try transform(step: step, mapping: mapping).apply(current) {
            case let .record(next, count):
                current = next
                converted += count
                name = mapping.destination
            case .reject(let reject):
                return .reject(reject)
            case .filtered:
                return .filtered
            }
        }
        return .record(current, entity: name, converted: converted)
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
        let key = "\(step)/\(mapping.source)"
        if let known = transforms[key] { return known }
        guard let source = schema(version: step, entity: mapping.source),
              let destination = schema(version: step + 1, entity: mapping.destination) else {
            throw .model("\(mapping.source) → \(mapping.destination): entity missing in \(versions[step].name) or \(versions[step + 1].name)")
        }
        let made = try EntityTransform(mapping: mapping, source: source, destination: destination, options: options, variables: variables)
        transforms[key] = made
        return made
    }
}
