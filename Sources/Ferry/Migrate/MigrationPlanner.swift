import FerryFormats
import FerryMigration
import FerryModel
import FoundationEssentials

/// Builds the chain of mappings for a versioned model. Each pair of consecutive versions runs
/// the Core Data mapping model that maps it, when there is one, else the inferred mapping; the
/// written mapping file of that pair applies on top. A written mapping lives beside the model
/// bundle as `<FROM VERSION> to <TO VERSION>.mapping` (`Migrations/Workspace 2 to Workspace 3.mapping`).
///
/// A migration's chain stops only at the versions where something must happen: each source's
/// own version, the two ends of each written mapping and mapping model it runs, and the target.
/// Between two stops the mapping is inferred straight from one to the other, as Core Data infers it from
/// a store's version to the current one. A chain through every version lost the values of an
/// attribute that the source and the target have and a version between lacks, and the order of
/// a bundle's versions is only their names' order. It also stops at a version between where
/// inferring straight across would carry less than the steps through it (`InferredStops`): a
/// rename chained over versions (`A`, renamed `B`, then `C`) is carried as the plan shows it.
///
/// A mapping that spans versions (`V1 to V3.mapping`) is one step, as Core Data runs the mapping
/// model from a store's version to the current one: from each stop, the longest mapping that
/// starts there. One that cannot be (a source is of a version it spans) is refused, and every
/// other mapping found that no step reads is named in a warning (`UnreadMappings`). A plan
/// without sources shows the chain of a store of the oldest version: every version, but those a
/// mapping spans.
///
/// Mapping models are the ones given (`--mapping`), then the `.xcmappingmodel` folders and `.cdm`
/// files beside the model bundle, in name order. A step runs the first whose source and
/// destination entity version hashes are subsets of the two versions' (as Core Data chooses,
/// never by file name); a given one that maps no step of the chain is a mistake.
struct MigrationPlanner {
    let bundle: ModelBundle
    let modelPath: String
    let variables: [String: String]
    /// The last version of the chain; nil means the bundle's current version.
    let target: String?
    /// Mapping models given explicitly, tried before the ones beside the model.
    var mappingModelPaths: [String] = []
    /// What a failing written value does where its rule does not say.
    var defaultFailure: FailurePolicy = .reject
    /// The migration's sources, whose versions the chain starts at; none for a plan of the model.
    var sources: [MigrationSource] = []

    /// The chain's versions, up to the target, and the versions the run's sources are of. With
    /// sources, only the chain's stops; without, every version but those a mapping spans.
    func stops(found: [FoundMapping], mappingModels: [CoreDataMappingModel]) throws(MigrateError) -> ChainStops {
        let all = bundle.versions
        let name = target ?? bundle.currentVersionName
        guard let last = all.firstIndex(where: { $0.name == name }) else { throw .unknownVersion(name, available: all.map(\.name)) }
        let upToTarget = Array(all[...last])
        let spans = found.filter { $0.from < $0.to && $0.to <= last }
        guard !sources.isEmpty else {
            let (stops, _) = Self.steps(from: 0, to: last, required: [], spans: spans, everyVersion: true)
            return ChainStops(versions: stops.map { all[$0] }, sourceVersions: [:])
        }
        // Each source's version is looked up once (a store is opened for it).
        let entries = sources.map { (source: $0, version: entryVersion(of: $0, among: upToTarget)) }
        // A source of a version named after the target: Core Data migrates it by a mapping model
        // that maps it to the target, whatever the names' order.
        for (source, version) in entries where version == nil {
            guard let entry = entryVersion(of: source, among: all),
                  let from = all.firstIndex(where: { $0.name == entry }), from > last else { continue }
            let (fromHashes, toHashes) = (VersionHasher.hashes(of: all[from]).entityHashes, VersionHasher.hashes(of: all[last]).entityHashes)
            guard sources.count == 1, mappingModels.contains(where: { $0.maps(from: fromHashes, to: toHashes) }) else {
                throw .sourceAfterTarget(source: source.path, version: entry, target: name)
            }
            return ChainStops(versions: [all[from], all[last]], sourceVersions: [entry: [source.path]])
        }
        let sourceVersions = Dictionary(grouping: entries.compactMap { entry in entry.version.map { ($0, entry.source.path) } }, by: { $0.0 })
            .mapValues { $0.map { $0.1 } }
        let entryIndices = Set(sourceVersions.keys.compactMap { version in upToTarget.firstIndex { $0.name == version } })
        // Versions before every source's own are no stop of its records (a store already at the
        // target is no migration from an older version). A source whose version is not found
        // fails the run on its own; the chain then starts where any mapping does.
        let first = entryIndices.count == entries.count ? entryIndices.min() ?? last : (spans.map(\.from) + entryIndices + [last]).min() ?? last
        let (stops, mapped) = Self.steps(from: first, to: last, required: entryIndices.union([last]), spans: spans, everyVersion: false)
        return ChainStops(versions: carryingThrough(Set(stops), mapped: mapped, of: upToTarget).sorted().map { upToTarget[$0] },
                          sourceVersions: sourceVersions)
    }

    /// The stops from `first` to `last` (indices of the bundle's versions) and the steps between
    /// them that a mapping spans. From each stop, the step is the longest of the mappings that
    /// start there and span no `required` stop: records cross it in one step, as Core Data runs
    /// the mapping model from a store's version to the current one. Where none does, the mapping
    /// is inferred to the next version where something must happen (a required stop, the start
    /// of a mapping), or to the next version (`everyVersion`).
    private static func steps(from first: Int, to last: Int, required: Set<Int>, spans: [FoundMapping], everyVersion: Bool)
        -> (stops: [Int], mapped: Set<[Int]>)
    {
        var stops = [first]
        var mapped: Set<[Int]> = []
        var at = first
        while at < last {
            let crossing = spans.filter { span in span.from == at && !required.contains { span.from < $0 && $0 < span.to } }
            if let longest = crossing.map(\.to).max() {
                mapped.insert([at, longest])
                at = longest
            } else {
                at = everyVersion ? at + 1 : (required.union(spans.map(\.from))).filter { $0 > at }.min() ?? last
            }
            stops.append(at)
        }
        return (stops, mapped)
    }

    /// The written mapping files and mapping models beside the model (and given) with the two
    /// versions of the bundle each maps, in any order: a file by its name, a mapping model by
    /// its entity version hashes (one may map several pairs, each with no version between its two
    /// that has either one's hashes).
    func foundMappings(_ mappingModels: [CoreDataMappingModel]) -> [FoundMapping] {
        let versions = bundle.versions
        let hashes = versions.map { VersionHasher.hashes(of: $0).entityHashes }
        var found: [FoundMapping] = []
        for from in versions.indices {
            for to in versions.indices where to != from {
                let path = mappingFilePath(from: versions[from].name, to: versions[to].name)
                if FileManager.default.fileExists(atPath: path) { found.append(FoundMapping(path: path, from: from, to: to)) }
                // Versions of equal hashes are one to Core Data: a mapping model of V1 → V2 maps no
                // V1 → V3 when V3 has V2's hashes (it became a step across V2, and V2 → V3's
                // written mapping was skipped, exit 0).
                let between = from < to ? Array((from + 1)..<to) : []
                guard !between.contains(where: { hashes[$0] == hashes[from] || hashes[$0] == hashes[to] }) else { continue }
                found += mappingModels.filter { $0.maps(from: hashes[from], to: hashes[to]) }.map { FoundMapping(path: $0.path, from: from, to: to) }
            }
        }
        return found
    }

    /// `stops` with the versions between two of them that inferring straight across would skip
    /// while the steps through them carry more (`InferredStops`: a rename chained over versions).
    /// A gap that a written mapping or a mapping model spans is its own step and stays whole.
    private func carryingThrough(_ stops: Set<Int>, mapped: Set<[Int]>, of versions: [ManagedObjectModel]) -> Set<Int> {
        let ordered = stops.sorted()
        var kept = stops
        for (from, to) in zip(ordered, ordered.dropFirst()) where to - from > 1 && !mapped.contains([from, to]) {
            kept.formUnion(InferredStops.stops(in: Array(versions[from...to])).map { from + $0 })
        }
        return kept
    }

    /// The version a source's records are read as, among `versions`: a file's named one or the
    /// oldest with its entity, a store's by its hashes (as its cursor matches it). Nil when none
    /// is: the run then fails on that source with its own error.
    private func entryVersion(of source: MigrationSource, among versions: [ManagedObjectModel]) -> String? {
        switch source.kind {
        case let .file(entity, version):
            return version ?? versions.first { $0.entity(named: entity) != nil }?.name
        case .store:
            guard let store = try? CoreDataStoreReader(path: source.path), let hashes = try? StoreRecordCursor.versionHashes(of: store),
                  case let .success(match) = StoreVersionMatch.match(hashes, in: versions) else { return nil }
            return match.model.name
        }
    }

    /// The folder the model bundle is in, where written mappings and mapping models are found.
    private var folder: String { Self.folder(of: modelPath) }

    private static func folder(of modelPath: String) -> String {
        let trimmed = modelPath.hasSuffix("/") ? String(modelPath.dropLast()) : modelPath
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    /// What a migration with the model at `modelPath` may read as mappings: the mapping models
    /// given, and the written mappings and mapping models beside the model. No output of the
    /// run may replace one.
    static func mappingInputs(modelPath: String, given: [String]) -> [String] {
        let folder = folder(of: modelPath)
        let beside = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [])
            .filter { name in name.hasSuffix(".mapping") || MappingModelLoader.extensions.contains { name.hasSuffix($0) } }
            .map { (folder.isEmpty ? "" : folder + "/") + $0 }
        return given + beside
    }

    /// A warning for each `.mapping` file beside the model that looks like a written mapping of it
    /// but names no two of its versions: one side is a version of it and the other is not, or is
    /// the same (`Workspace 2 to Workspace 4.mapping`), or the name is close to one that would be
    /// (`Workspace 2 to Workspace3.mapping`). Such a file is read by no step, and its rules
    /// silently did not apply. Files of other models in the same folder are not named.
    func misnamedMappingFiles() -> [String] {
        let versions = bundle.versions.map(\.name)
        let names = versions.indices.flatMap { from in versions.indices.filter { $0 != from }.map { "\(versions[from]) to \(versions[$0]).mapping" } }
        let beside = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return beside.filter { $0.hasSuffix(".mapping") && !names.contains($0) }.sorted().compactMap { file in
            let ends = file.dropLast(".mapping".count).components(separatedBy: " to ")
            let namesThisModel = ends.count == 2 && ends.contains(where: versions.contains)
            let meant = NameSuggestion.closest(to: file, among: names)
            guard namesThisModel || meant != nil else { return nil }
            return "\((folder.isEmpty ? "" : folder + "/") + file) names no two versions of \(bundle.name) (\(versions.joined(separator: ", "))), "
                + "so no step reads it" + (meant.map { " (did you mean '\($0)'?)" } ?? "")
        }
    }

    /// The written mapping file between two versions, if there is one.
    func mappingFilePath(from: String, to: String) -> String {
        (folder.isEmpty ? "" : folder + "/") + "\(from) to \(to).mapping"
    }

    /// The mapping models a step may run, in the order they are tried: the given ones, then the
    /// ones beside the model.
    func mappingModelCandidates() -> [String] {
        let beside = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [])
            .filter { name in MappingModelLoader.extensions.contains { name.hasSuffix($0) } }.sorted()
            .map { (folder.isEmpty ? "" : folder + "/") + $0 }
        return mappingModelPaths + beside.filter { !mappingModelPaths.contains($0) }
    }

    /// The chain of mappings (`planned(options:)`), without what it does not read.
    func chain(options: CoercionOptions) throws(MigrateError) -> MigrationChain {
        try planned(options: options).chain
    }

    /// The chain of mappings, and a warning for each mapping found that no step reads
    /// (`UnreadMappings`); a written mapping or mapping model that spans versions and would
    /// carry records of its first version, but cannot as a source is of a version it spans, is
    /// refused.
    func planned(options: CoercionOptions) throws(MigrateError) -> (chain: MigrationChain, unreadMappings: [String]) {
        var mappingModels: [CoreDataMappingModel] = []
        for path in mappingModelCandidates() {
            do { mappingModels.append(try MappingModelLoader.load(at: path)) } catch { throw .mappingModel(error) }
        }
        let found = foundMappings(mappingModels)
        let stops = try stops(found: found, mappingModels: mappingModels)
        let versions = stops.versions
        guard versions.count >= 1 else { throw .notVersioned(modelPath) }
        let hashes = versions.map { VersionHasher.hashes(of: $0).entityHashes }
        // The mappings each step reads.
        var read: [[String]] = []
        var steps: [MappingModel] = []
        for index in versions.indices.dropLast() {
            read.append([])
            let source = versions[index], destination = versions[index + 1]
            let path = mappingFilePath(from: source.name, to: destination.name)
            var step: MappingModel
            if let chosen = mappingModels.first(where: { $0.maps(from: hashes[index], to: hashes[index + 1]) }) {
                step = DeclarativeMapping.translate(chosen, from: source, to: destination, writtenMappingPath: path)
                read[index].append(chosen.path)
            } else {
                step = MappingInference.infer(from: source, to: destination)
            }
            if FileManager.default.fileExists(atPath: path) {
                read[index].append(path)
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
        let used = Set(read.joined())
        let unread = UnreadMappings(model: bundle.name, versions: bundle.versions.map(\.name), chain: versions.map(\.name), read: read,
                                    sourceVersions: stops.sourceVersions)
        let unmatched = mappingModels.map(\.path).filter { path in !found.contains { $0.path == path } }
        let warnings = try unread.warnings(found.filter { !used.contains($0.path) }) + unread.warnings(unmatched: unmatched)
        if let unused = mappingModels.first(where: { mappingModelPaths.contains($0.path) && !used.contains($0.path) }) {
            throw .mappingModelMapsNoStep(path: unused.path, chain: versions.map(\.name),
                                          reason: found.first { $0.path == unused.path }.map { unread.explanation(of: $0) })
        }
        return (MigrationChain(versions: versions, steps: steps, options: options, variables: variables), warnings)
    }
}

/// The versions a migration's chain stops at, and the versions its sources are of.
struct ChainStops {
    let versions: [ManagedObjectModel]
    /// Each source's version (found among the chain's) with the sources of it.
    let sourceVersions: [String: [String]]
}

extension MigrationPlanner {
    /// The planner of a migration request: its model, variables, target version, mapping models
    /// and failure policy.
    init(bundle: ModelBundle, request: MigrateRequest) {
        self.init(bundle: bundle, modelPath: request.modelPath, variables: request.variables, target: request.targetVersion,
                  mappingModelPaths: request.mappingModels, defaultFailure: request.lenient ? .null : .reject, sources: request.sources)
    }
}
