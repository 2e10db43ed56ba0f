import FerryFormats
import FerryMigration
import FerryModel
import FoundationEssentials

/// Builds the chain of mappings for a versioned model: inferred for each pair of consecutive
/// versions, with the written mapping file of that pair applied on top. A written mapping lives
/// beside the model bundle as `<FROM VERSION> to <TO VERSION>.mapping`
/// (`Migrations/Workspace 2 to Workspace 3.mapping`).
struct MigrationPlanner {
    let bundle: ModelBundle
    let modelPath: String
    let variables: [String: String]
    /// The last version of the chain; nil means the bundle's current version.
    let target: String?
    /// What a failing written value does where its rule does not say.
    var defaultFailure: FailurePolicy = .reject

    /// The versions in order, up to the target.
    func versions() throws(MigrateError) -> [ManagedObjectModel] {
        let all = bundle.versions
        let name = target ?? bundle.currentVersionName
        guard let last = all.firstIndex(where: { $0.name == name }) else { throw .unknownVersion(name, available: all.map(\.name)) }
        return Array(all[...last])
    }

    /// The written mapping file between two versions, if there is one.
    func mappingFilePath(from: String, to: String) -> String {
        let trimmed = modelPath.hasSuffix("/") ? String(modelPath.dropLast()) : modelPath
        let folder = trimmed.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty ? "" : folder + "/") + "\(from) to \(to).mapping"
    }

    func chain(options: CoercionOptions) throws(MigrateError) -> MigrationChain {
        let versions = try versions()
        guard versions.count >= 1 else { throw .notVersioned(modelPath) }
        var steps: [MappingModel] = []
        for index in versions.indices.dropLast() {
            let source = versions[index], destination = versions[index + 1]
            var step = MappingInference.infer(from: source, to: destination)
            let path = mappingFilePath(from: source.name, to: destination.name)
            if FileManager.default.fileExists(atPath: path) {
                let text: String
                do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                    throw .mapping(.file(path: path, line: 0, column: 0, reason: "cannot read it: \(ErrorText.reason(of: error, at: path))"))
                }
                do {
                    let file = try MappingFile(text: text, path: path)
                    step = try WrittenMapping.apply(file, to: step, source: source, destination: destination, defaultFailure: defaultFailure)
                } catch {
                    throw .mapping(error)
                }
            }
            steps.append(step)
        }
        return MigrationChain(versions: versions, steps: steps, options: options, variables: variables)
    }
}
