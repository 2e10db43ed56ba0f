import FerryMigration
import FerryModel

/// Builds the chain of mappings for a versioned model: inferred for each pair of consecutive
/// versions, with the written mapping files beside the model applied on top.
struct MigrationPlanner {
    let bundle: ModelBundle
    let modelPath: String
    let variables: [String: String]
    /// The last version of the chain; nil means the bundle's current version.
    let target: String?

    /// The versions in order, up to the target.
    func versions() throws(MigrateError) -> [ManagedObjectModel] {
        let all = bundle.versions
        let name = target ?? bundle.currentVersionName
        guard let last = all.firstIndex(where: { $0.name == name }) else { throw .unknownVersion(name, available: all.map(\.name)) }
        return Array(all[...last])
    }

    func chain(options: CoercionOptions) throws(MigrateError) -> MigrationChain {
        let versions = try versions()
        guard versions.count >= 1 else { throw .notVersioned(modelPath) }
        var steps: [MappingModel] = []
        for index in versions.indices.dropLast() {
            steps.append(MappingInference.infer(from: versions[index], to: versions[index + 1]))
        }
        return MigrationChain(versions: versions, steps: steps, options: options)
    }
}
