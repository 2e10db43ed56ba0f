import FerryFormats
import FerryModel
import FerryVerify
import FoundationEssentials

/// Everything a migration's result depends on, as named SHA-256 digests: Ferry's version (and
/// the revision of the fingerprints a receipt keeps), the options that shape records, the model
/// bundle, the written mapping file of each pair of consecutive versions (or its absence) and of
/// each other pair that has one (a step may span versions: `V1 to V3.mapping`), every
/// Core Data mapping model a step may run (given or beside the model), and the bytes of each
/// source in order (a store's with its external data files). The mapping is deterministic, so two
/// runs whose inputs are equal write the same records and links.
///
/// Paths are not inputs: a source or model copied elsewhere is the same input. The order of the
/// sources is (it decides which duplicate comes first). Standard input cannot be read again, so
/// it has no digest and never equals anything.
struct MigrationInputs: Codable, Equatable, Sendable {
    /// One input and its digest (nil when it cannot be read again).
    struct Input: Codable, Equatable, Sendable {
        var name: String
        var digest: String?
        /// What the digest is of, where it is short and says which part differs: the options'
        /// text, one `name: value` line each (`OptionsText`); nil for files and in older receipts.
        var text: String? = nil

        /// Whether it is one of the sources (`source N (…)`).
        var isSource: Bool { name.hasPrefix(Self.sourcePrefix) }
        static let sourcePrefix = "source "
    }

    var inputs: [Input]

    /// The inputs of `request`, whose model bundle is `bundle`.
    static func of(_ request: MigrateRequest, bundle: ModelBundle) throws(MigrateError) -> MigrationInputs {
        let options = OptionsText.render(request)
        var inputs = [
            Input(name: "ferry", digest: FerryVersion.current),
            // A receipt whose fingerprints were computed another way is not compared with.
            Input(name: "fingerprints", digest: "revision \(StoreVerifier.fingerprintRevision)"),
            Input(name: "options", digest: Hex.string(SHA256.hash(Array(options.utf8))), text: options),
            Input(name: "model", digest: try digest(ofTree: request.modelPath)),
        ]
        let planner = MigrationPlanner(bundle: bundle, request: request)
        let versions = bundle.versions
        for from in versions.indices {
            for to in versions.indices where to != from {
                let path = planner.mappingFilePath(from: versions[from].name, to: versions[to].name)
                let exists = FileManager.default.fileExists(atPath: path)
                guard exists || to == from + 1 else { continue }
                inputs.append(Input(name: "mapping \(versions[from].name) to \(versions[to].name)", digest: exists ? try digest(ofFile: path) : "absent"))
            }
        }
        for path in planner.mappingModelCandidates() {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            inputs.append(Input(name: "mapping model \(name)", digest: try digest(ofTree: path)))
        }
        for (number, source) in request.sources.enumerated() {
            inputs.append(Input(name: Input.sourcePrefix + "\(number + 1) (\(source.kindDescription))", digest: try digest(of: source)))
        }
        return MigrationInputs(inputs: inputs)
    }

    /// The names of the inputs that differ from `other`'s, are missing from either, or have no
    /// digest. Sources of another number are said as such, not source by source (the second
    /// source of four is not the second of three).
    func differences(from other: MigrationInputs) -> [String] {
        let (mine, theirs) = (sources, other.sources)
        let (kept, otherKept) = mine.count == theirs.count ? (inputs, other.inputs)
            : (inputs.filter { !$0.isSource }, other.inputs.filter { !$0.isSource })
        let byName = Dictionary(otherKept.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let changed = kept.filter { input in byName[input.name].map(input.matches) != true }.map { input in
            byName[input.name].flatMap { input.differingLines(from: $0) }.map { "\(input.name) (\($0.joined(separator: ", ")))" } ?? input.name
        }
        let gone = otherKept.map(\.name).filter { name in !kept.contains { $0.name == name } }
        let count = mine.count == theirs.count ? [] : ["the sources (the receipt's were \(theirs.count), this run gives \(mine.count))"]
        return changed + gone + count
    }

    /// The inputs that are sources, in order.
    private var sources: [Input] { inputs.filter(\.isSource) }

    /// A store's bytes with its `-wal` (a live store's latest rows are there) and its external data
    /// files (`ExternalDataDigest`: values moved out of the database); a file's bytes.
    private static func digest(of source: MigrationSource) throws(MigrateError) -> String? {
        guard source.path != "-" else { return nil }
        guard case .store = source.kind else { return try digest(ofFile: source.path) }
        // The run's own connections may hold the store's lock: read without dropping it.
        let main = try digest(ofFile: source.path, database: true)
        // Beside the file a link leads to, where SQLite keeps it.
        let log = FileInfo.linkTarget(of: source.path) + "-wal"
        let wal = FileManager.default.fileExists(atPath: log) ? try digest(ofFile: log, database: true) : nil
        let external = try ExternalDataDigest.of(storePath: source.path)
        guard wal != nil || external != nil else { return main }
        return Hex.string(SHA256.hash(Array("\(main)\n\(wal ?? "no wal")\n\(external ?? "no external data")".utf8)))
    }

    /// A model bundle folder: every file under it by relative path, sorted; a single file: its bytes.
    private static func digest(ofTree path: String) throws(MigrateError) -> String {
        guard isFolder(path) else { return try digest(ofFile: path) }
        let names: [String]
        do { names = try FileManager.default.subpathsOfDirectory(atPath: path).sorted() } catch {
            throw .store(source: path, reason: "cannot list the model bundle: \(error)")
        }
        var listing = ""
        for name in names {
            let file = path + "/" + name
            guard !isFolder(file) else { continue }
            listing += "\(name)\n\(try digest(ofFile: file))\n"
        }
        return Hex.string(SHA256.hash(Array(listing.utf8)))
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    /// - Parameter database: a store file, read through `FileDigest.sha256(ofDatabase:)`.
    private static func digest(ofFile path: String, database: Bool = false) throws(MigrateError) -> String {
        do { return try (database ? FileDigest.sha256(ofDatabase: path) : FileDigest.sha256(of: path)).digest } catch {
            throw .store(source: path, reason: "cannot read it to take its digest: \(ErrorText.reason(of: error, at: path))")
        }
    }
}

extension MigrationInputs.Input {
    /// Equal digests; an input without one matches nothing.
    func matches(_ other: Self) -> Bool {
        guard let digest, let theirs = other.digest else { return false }
        return name == other.name && digest == theirs
    }

    /// The names of the `name: value` lines of `text` that differ from `other`'s (`variables`),
    /// when both keep their text.
    func differingLines(from other: Self) -> [String]? {
        guard let text, let theirs = other.text else { return nil }
        func lines(_ text: String) -> [String: Substring] {
            Dictionary(text.split(separator: "\n").map { line in
                let name = line.prefix { $0 != ":" }
                return (String(name), line.dropFirst(name.count))
            }, uniquingKeysWith: { first, _ in first })
        }
        let (mine, others) = (lines(text), lines(theirs))
        let names = Set(mine.keys).union(others.keys).filter { mine[$0] != others[$0] }.sorted()
        return names.isEmpty ? nil : names
    }
}

extension MigrationSource {
    /// The kind without the path: `store`, or `file ENTITY[@VERSION]`.
    var kindDescription: String {
        switch kind {
        case .store: "store"
        case let .file(entity, version): "file \(entity)\(version.map { "@\($0)" } ?? "")"
        }
    }
}
