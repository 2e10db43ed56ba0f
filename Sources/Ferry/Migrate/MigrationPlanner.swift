import FerryMigration
import FerryModel

/// Builds the chain of mappings for a versioned model: inferred for each pair of consecutive
/// versions, with the written mapping files beside the model applied on top.
struct MigrationPlanner {
    let bundle: ModelBundle
    let modelPath: String
    let variables: [String: String]

    /// The versions in order, up to the current one.
    var versions: [ManagedObjectModel] {
        let all = bundle.versions
        guard let current = all.firstIndex(where: { $0.name == bundle.currentVersionName }) else { return all }
        return Array(all[...current])
    }

    func chain(options: CoercionOptions) throws(MigrateError) -> MigrationChain {
        let versions = versions
        guard versions.count >= 1 else { throw .notVersioned(modelPath) }
        var steps: [MappingModel] = []
        for index in versions.indices.dropLast() {
            steps.append(MappingInference.infer(from: versions[index], to: versions[index + 1]))
        }
        return MigrationChain(versions: versions, steps: steps, options: options)
    }
}
