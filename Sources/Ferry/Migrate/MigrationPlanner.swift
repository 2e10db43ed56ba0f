import FerryFormats
import FerryMigration
import FerryModel
import FoundationEssentials

/// Builds the chain of mappings for a versioned model. Each step runs the Core Data mapping model
/// that maps its two versions, when there is one, else the inferred mapping; the written mapping
/// file of that pair applies on top. A written mapping lives beside the model bundle as
/// `<FROM VERSION> to <TO VERSION>.mapping` (`Migrations/Workspace 2 to Workspace 3.mapping`).
///
/// The records of each source's version take their own way to the target: the one they would
/// take were that version's sources the run's only ones. Ways that meet go on together
/// (`MigrationChain`), and every record ends in the one store. A way stops only at the versions
/// where something must happen: the two ends of each written mapping and mapping model it runs,
/// and the target. Between two stops the mapping is inferred straight from one to the other, as
/// Core Data infers it from a store's version to the current one. A chain through every version
/// lost the values of an attribute that the source and the target have and a version between
/// lacks (and so did one chain for all sources, stopping at each one's version: a store of `V1`
/// migrated with a file of `V2` lost what `V2` lacks), and the order of a bundle's versions is
/// only their names' order. A way also stops at a version between where inferring straight
/// across would carry less than the steps through it (`InferredStops`): a rename chained over
/// versions (`A`, renamed `B`, then `C`) is carried as the plan shows it.
///
/// A mapping that spans versions (`V1 to V3.mapping`) is one step, as Core Data runs the mapping
/// model from a store's version to the current one: from each stop, the longest mapping that
/// starts there (a source of a version it spans takes its own way). Every other mapping found
/// that no step reads is named in a warning (`UnreadMappings`). A plan without sources shows the
/// chain of a store of the oldest version: every version, but those a mapping spans.
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
    /// The migration's sources, whose versions the ways start at; none for a plan of the model.
    var sources: [MigrationSource] = []

    /// The versions records stop at, up to the target, and the step from each. With sources, the
    /// records of each source's version take the way they would take were its sources the run's
    /// only ones; without, a store of the oldest version's, through every version but those a
    /// mapping spans.
    func stops(found: [FoundMapping], mappingModels: [CoreDataMappingModel]) throws(MigrateError) -> ChainStops {
        let all = bundle.versions
        let name = target ?? bundle.currentVersionName
        guard let last = all.firstIndex(where: { $0.name == name }) else { throw .unknownVersion(name, available: all.map(\.name)) }
        let upToTarget = Array(all[...last])
        let spans = found.filter { $0.from < $0.to && $0.to <= last }
        guard !sources.isEmpty else {
            return ChainStops(from: [0], to: last, of: upToTarget) { at in Self.nextStop(after: at, to: last, spans: spans, of: nil) }
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
            return ChainStops(versions: [all[from], all[last]], destinations: [1])
        }
        var starts = Set(entries.compactMap { entry in entry.version.flatMap { version in upToTarget.firstIndex { $0.name == version } } })
        // A source whose version is not found fails the run on its own; the chain then also
        // starts where any mapping does.
        if entries.contains(where: { $0.version == nil }) { starts.insert((spans.map(\.from) + starts + [last]).min() ?? last) }
        return ChainStops(from: starts, to: last, of: upToTarget) { at in
            Self.nextStop(after: at, to: last, spans: spans, of: upToTarget)
        }
    }

    /// The version records of version `at` go to next (indices of the bundle's versions, up to
    /// `last`): across the longest of the mappings that start there, as Core Data runs the
    /// mapping model from a store's version to the current one. Where none does, the mapping is
    /// inferred to the next version where something must happen (the start of a mapping, the
    /// target), or to the farthest version before it that inferring straight across reaches
    /// carrying all that the steps through every version between carry (`InferredStops`: a
    /// rename chained over versions). Without `versions`, to the next version (a plan of the model).
    ///
    /// It depends on `at` alone, not on where records started: the ways of two versions that
    /// meet go on together.
    private static func nextStop(after at: Int, to last: Int, spans: [FoundMapping], of versions: [ManagedObjectModel]?) -> Int {
        if let longest = spans.filter({ $0.from == at }).map(\.to).max() { return longest }
        guard let versions else { return at + 1 }
        let end = spans.map(\.from).filter { $0 > at }.min() ?? last
        return at + InferredStops.stops(in: Array(versions[at...end]))[1]
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

    /// The version a source's records are read as, among `versions`: a file's named one or the
    /// oldest with its entity, a store's by its hashes (as its cursor matches it). Nil when none
    /// is (a file naming a version after the target too, refused as a store of one is): the run
    /// then fails on that source with its own error.
    private func entryVersion(of source: MigrationSource, among versions: [ManagedObjectModel]) -> String? {
        switch source.kind {
        case let .file(_, named?):
            return versions.contains { $0.name == named } ? named : nil
        case let .file(entity, nil):
            return versions.first { $0.entity(named: entity) != nil }?.name
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
    /// (`UnreadMappings`).
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
        for (index, next) in stops.destinations.enumerated() {
            read.append([])
            let source = versions[index], destination = versions[next]
            let path = mappingFilePath(from: source.name, to: destination.name)
            var step: MappingModel
            if let chosen = mappingModels.first(where: { $0.maps(from: hashes[index], to: hashes[next]) }) {
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
        let chain = MigrationChain(versions: versions, steps: steps, destinations: stops.destinations, options: options, variables: variables)
        let used = Set(read.joined())
        let unread = UnreadMappings(model: bundle.name, versions: bundle.versions.map(\.name), chain: chain, read: read)
        let unmatched = mappingModels.map(\.path).filter { path in !found.contains { $0.path == path } }
        let warnings = unread.warnings(found.filter { !used.contains($0.path) }) + unread.warnings(unmatched: unmatched)
        if let unused = mappingModels.first(where: { mappingModelPaths.contains($0.path) && !used.contains($0.path) }) {
            throw .mappingModelMapsNoStep(path: unused.path, chains: chain.chains,
                                          reason: found.first { $0.path == unused.path }.map { unread.explanation(of: $0) })
        }
        return (chain, warnings)
    }
}

/// The versions a migration's records stop at and the step from each.
struct ChainStops {
    /// In the bundle's order, the target last.
    let versions: [ManagedObjectModel]
    /// The index in `versions` of the version each step leads to: the step from each version but the last.
    let destinations: [Int]
}

extension ChainStops {
    /// The stops of the ways from each of `starts` to `last` (indices of `bundleVersions`), the
    /// next stop after each version given by `next`.
    init(from starts: Set<Int>, to last: Int, of bundleVersions: [ManagedObjectModel], next: (Int) -> Int) {
        var steps: [Int: Int] = [:]
        for start in starts {
            var at = start
            while at < last, steps[at] == nil {
                let to = next(at)
                steps[at] = to
                at = to
            }
        }
        let stops = steps.keys.sorted() + [last]
        versions = stops.map { bundleVersions[$0] }
        destinations = stops.dropLast().compactMap { at in steps[at].flatMap(stops.firstIndex(of:)) }
    }
}

extension MigrationPlanner {
    /// The planner of a migration request: its model, variables, target version, mapping models
    /// and failure policy.
    init(bundle: ModelBundle, request: MigrateRequest) {
        self.init(bundle: bundle, modelPath: request.modelPath, variables: request.variables, target: request.targetVersion,
                  mappingModelPaths: request.mappingModels, defaultFailure: request.lenient ? .null : .reject, sources: request.sources)
    }
}
