import FerryMigration
import FerryModel
import FerryStore
import FerryFormats

/// Why a migration could not run or finish. Nothing is left at the destination.
public enum MigrateError: Error, CustomStringConvertible, WriteFailureCarrying {
    case model(ModelLoadError)
    case notVersioned(String)
    case unknownVersion(String, available: [String])
    case noMatchingVersion(source: String, differing: [String])
    case unknownEntity(source: String, entity: String)
    /// A file names a version (`ENTITY@VERSION:FILE`) that has no such entity.
    case entityNotInVersion(source: String, entity: String, version: String, versionsWithIt: [String])
    /// A source's version comes after the target in the bundle's (name) order, and no mapping
    /// model maps it to the target.
    case sourceAfterTarget(source: String, version: String, target: String)
    /// A source given as a store is a file of records (`format`): it needs its entity, as
    /// `ENTITY:PATH`. `entities` are the model's, to choose from.
    case entityMissing(source: String, format: SourceFormat, entities: [String])
    /// A store whose metadata has no version hashes and no model cache to take them from.
    case noVersionHashes(source: String)
    case destinationExists(String)
    case store(source: String, reason: String)
    case source(RecordSourceError)
    case mapping(MappingError)
    /// A Core Data mapping model cannot be loaded.
    case mappingModel(MappingModelLoadError)
    /// A mapping model given with `--mapping` maps no step of the chain (whose ways are
    /// `chains`, `MigrationChain.chains`). `reason` says why, when its entity version hashes are
    /// those of two versions.
    case mappingModelMapsNoStep(path: String, chains: [[String]], reason: String?)
    /// The written mappings (`files`) of two steps into the target give an entity's duplicates
    /// different rules (`unique …`, each in `rules`): the records of both steps go into the one
    /// store, which merges them by one (`DuplicateRules`).
    case duplicateRulesDisagree(entity: String, files: [String], rules: [String])
    /// The written mapping at `path` identifies `entity`'s duplicates by `attribute` (`unique …`),
    /// which the step into `version` carries nowhere as it is: duplicates are merged in the
    /// store of `target`, where the attribute cannot be compared (`DuplicateRules`).
    case duplicateRuleNotCarried(path: String, entity: String, attribute: String, version: String, target: String)
    case writer(StoreWriterError)
    case links(GraphWriteError)
    case rejectLog(path: String, reason: String)
    /// A full disk or the file size limit (the reject log's; the store's come as `.writer`).
    case noRoom(WriteFailure)
    /// An output (the store, the reject log) is one of the run's inputs: refused before anything
    /// is opened, as writing it would destroy the input.
    case outputIsInput(output: String, input: String)
    /// The store and the reject log are one file: refused before anything is opened.
    case outputTwice(String)
    /// A source store holds rows its reader did not deliver (or delivered rows it does not hold),
    /// counted independently with plain SQL: nothing is written.
    case notAccounted(source: String, problems: [String])
    /// The record pipeline stopped for a reason no migration source gives (a restore's keys).
    case pipeline(PipelineError)
    /// An option names an attribute or relationship the model lacks.
    case unknownName(UnknownOptionName)

    /// What the environment lacked (room, descriptors, a writable folder) while the store or the
    /// reject log was written or a source read: reported as that, exit 4, whichever step met it.
    public var writeFailure: WriteFailure? {
        switch self {
        case .writer(let error): error.writeFailure
        case .links(let error): error.writeFailure
        case .noRoom(let failure): failure
        case .source(let error): error.writeFailure
        default: nil
        }
    }

    public var description: String {
        switch self {
        case .model(let error): error.description
        case .notVersioned(let path): "\(path) has one version: a migration needs a versioned model (.xcdatamodeld)"
        case let .unknownVersion(name, available): "the model has no version '\(name)'; versions: \(available.joined(separator: ", "))"
        case let .noMatchingVersion(source, differing): PipelineError.noMatchingVersion(source: source, differing: differing).description
        case let .unknownEntity(source, entity): "\(source): no model version has an entity '\(entity)'"
        case let .entityNotInVersion(source, entity, version, versionsWithIt):
            "\(source): version '\(version)' has no entity '\(entity)'"
                + (versionsWithIt.isEmpty ? "; no version has it" : "; \(versionsWithIt.joined(separator: ", ")) \(versionsWithIt.count == 1 ? "has" : "have") it")
        case let .sourceAfterTarget(source, version, target):
            "\(source) is of version \(version), which comes after the target \(target) (a bundle's versions are in their names' order): "
                + "give a mapping model from \(version) to \(target) (--mapping), or migrate to \(version) or a later version"
        case let .entityMissing(source, format, entities):
            "\(source) is a \(format.name) file, not a store: name the entity of its records, as ENTITY:\(source)"
                + " (entities of the model: \(entities.joined(separator: ", ")))"
        case .noVersionHashes(let source): PipelineError.noVersionHashes(source: source).description
        case .destinationExists(let path): "\(path) exists; use --force to replace it"
        case let .store(source, reason): PipelineError.store(source: source, reason: reason).description
        case .source(let error): error.description
        case .mapping(let error): error.description
        case .unknownName(let error): error.description
        case .mappingModel(let error): error.description
        case let .mappingModelMapsNoStep(path, chains, reason):
            "\(path): maps no step of the \(ChainText.label(chains)) \(ChainText.ways(chains)): "
                + (reason ?? "its source and destination entity version hashes are those of no two versions of the model (Core Data chooses a mapping model by them)")
        case let .duplicateRulesDisagree(entity, files, rules):
            "\(files.joined(separator: " and ")) give duplicates of \(entity) different rules (\(rules.joined(separator: "; "))), "
                + "while the records of both steps go into one store, which merges its duplicates by one: write the same rule in both"
        case let .duplicateRuleNotCarried(path, entity, attribute, version, target):
            "\(path): unique … of \(entity) names \(attribute), which the step into \(version) does not carry as it is, while duplicates are "
                + "merged in the store of \(target): copy it unchanged on the way, or write the rule in the mapping into \(target)"
        case .writer(let error): error.description
        case .links(let error): error.description
        case let .rejectLog(path, reason): "\(path): cannot write the reject log: \(reason)"
        case .noRoom(let failure): failure.description
        case let .outputIsInput(output, input): PathOverlap.text(output: output, input: input) + "; nothing was opened"
        case let .outputTwice(path):
            "\(path) is named as both the store and the reject log (--out and --rejects); nothing was opened"
        case let .notAccounted(source, problems): PipelineError.notAccounted(source: source, problems: problems).description
        case .pipeline(let error): error.description
        }
    }
}

extension MigrateError {
    /// The migration's error for a pipeline's.
    init(_ error: PipelineError) {
        switch error {
        case .source(let error): self = .source(error)
        case let .store(source, reason): self = .store(source: source, reason: reason)
        case .noVersionHashes(let source): self = .noVersionHashes(source: source)
        case let .noMatchingVersion(source, differing): self = .noMatchingVersion(source: source, differing: differing)
        case let .notAccounted(source, problems): self = .notAccounted(source: source, problems: problems)
        case .mapping(let error): self = .mapping(error)
        case .links(let error): self = .links(error)
        case .rejectLog(let failure): self = .failedRejectLog(failure)
        case .noRoom(let failure): self = .noRoom(failure)
        case .keyOutOfOrder, .keyCollides, .sourceFailure: self = .pipeline(error)
        }
    }
}

extension MigrateError {
    /// The error of a reject log that could not be written.
    static func failedRejectLog(_ failure: RejectLog.Failure) -> MigrateError {
        failure.writeFailure.map(MigrateError.noRoom) ?? .rejectLog(path: failure.path, reason: failure.reason)
    }
}
