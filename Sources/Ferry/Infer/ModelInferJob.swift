import FerryMigration
import FerryModel

/// `ferry model infer`: a starter model from legacy files and no model. Reads every file with
/// import's readers into one `EntityProfile` (streaming; memory follows the keys and the
/// uniqueness budget), makes the model with `ModelInference`, and writes it as an `.xcdatamodeld`
/// of one version that is loaded back and kept only when it has the version hashes of the model
/// made. Importing the same files with that model and the same value rules rejects nothing but
/// the records no model could read (listed in the summary).
public struct ModelInferJob {
    public let request: ModelInferRequest

    public init(_ request: ModelInferRequest) {
        self.request = request
    }

    public func run() throws(ModelInferError) -> ModelInferSummary {
        guard !request.sources.isEmpty else { throw .invalidRequest("model infer takes one or more FILEs") }
        guard Self.isEntityName(request.entity) else {
            let capitalized = request.entity.prefix(1).uppercased() + request.entity.dropFirst()
            throw .invalidRequest("--entity \(request.entity): an entity name is an upper-case ASCII letter, then letters, digits or _"
                + (Self.isEntityName(capitalized) ? " (did you mean '\(capitalized)'?)" : ""))
        }
        let output: ModelBundleOutput?
        let version: String
        do throws(ModelExtractError) {
            output = try request.outputPath.map { path throws(ModelExtractError) in try ModelBundleOutput(path: path) }
            version = try output?.versionName(request.versionName) ?? request.versionName ?? request.entity
        } catch {
            throw .invalidRequest(error.description)
        }
        if let output, let (out, source) = PathOverlap.first(outputs: [output.path], inputs: request.sources) {
            throw .invalidRequest("--out \(out) is the source \(source)")
        }

        let profile = EntityProfile(options: request.files.coercion, budget: DistinctValueBudget(limit: request.uniqueLimit))
        let scan = SourceProfileScan(files: request.files)
        var unreadable = UnreadableRecords()
        var sources: [ScannedSource] = []
        for path in request.sources {
            do { sources.append(try scan.scan(path, into: profile, unreadable: &unreadable)) } catch { throw .source(error) }
            guard !profile.carriesStoreKeys else { throw .storeRows(path) }
        }
        let (model, report) = ModelInference.model(version: version, entity: request.entity, from: profile)
        if let records = report.entities.first, records.attributes.isEmpty, records.relationships.isEmpty {
            let keys = records.leftOut.map { "'\($0.key)': \($0.reason)" }
            throw .nothingToModel("no key of \(request.sources.joined(separator: ", ")) can become a property of \(request.entity) ("
                + (keys.isEmpty ? "\(profile.records) objects with keys, \(unreadable.count) records no model can read" : keys.joined(separator: "; "))
                + "), so nothing was written")
        }
        if let output {
            let made = VersionHasher.hashes(of: model).entityHashes
            do {
                try output.write(model, replacing: request.replaceExisting) { written throws(ModelExtractError) in
                    let differing = VersionHasher.hashes(of: written).differingEntities(from: made)
                    guard differing.isEmpty else {
                        throw .cannotWrite(path: output.path, reason: "the written model loads back with other version hashes "
                            + "(entities \(differing.joined(separator: ", ")))")
                    }
                }
            } catch {
                throw .output(error)
            }
        }
        return ModelInferSummary(model: model, report: report, sources: sources, unreadable: unreadable,
                                 coercion: request.files.coercion, bundlePath: output?.path)
    }

    /// An upper-case ASCII letter, then ASCII letters, digits or `_`, as Xcode wants entity names.
    static func isEntityName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
    }
}
