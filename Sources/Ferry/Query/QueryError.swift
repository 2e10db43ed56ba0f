import FerryFormats
import FerryModel
import FerryStore

/// Why `ferry query`, `ferry delete` or `ferry update` failed. Each case names what was wrong.
public enum QueryError: Error, Sendable, CustomStringConvertible {
    /// The store cannot be read.
    case store(StoreReaderError)
    /// The `--model` bundle cannot be loaded.
    case model(ModelLoadError)
    /// No version of the bundle matches the store's version hashes; `differing` lists, for the
    /// closest version, the entities whose hashes differ.
    case modelMismatch(store: String, closestVersion: String, differing: [String])
    /// No `--model` was given and the store has no usable `Z_MODELCACHE`.
    case modelCache(store: String, reason: String)
    /// The predicate, the sort keys or the query do not fit the model.
    case predicate(FetchPredicateError)
    /// `--set key=value`: the value cannot become the attribute's type.
    case value(key: String, reason: String)
    /// The delete or update was refused or failed; nothing was changed.
    case mutation(StoreMutationError)
    /// A value of object `primaryKey` (of `entity`) cannot be shown: an attribute that allows external
    /// storage holds a bad tag, or names a file of the external data folder that cannot be read.
    case unreadableValue(store: String, entity: String, primaryKey: Int64, attribute: String, reason: ExternalBinaryDataError)
    /// A text value that is not valid UTF-8: never repaired on the way out (`export` refuses it too).
    case invalidText(store: String, entity: String, primaryKey: Int64, attribute: String)
    /// A value whose storage class is not its attribute type's, refused in JSON and CSV, where it
    /// would read as another value of the type.
    case misfitValue(store: String, entity: String, primaryKey: Int64, attribute: String, reason: String)
    /// Reading rows failed.
    case sqlite(SQLiteError)
    /// The output could not be written.
    case output(ByteSinkError)

    public var description: String {
        switch self {
        case .store(let error): "\(error)"
        case .model(let error): "\(error)"
        case let .modelMismatch(store, version, differing):
            "\(store) does not match any version of the model (closest: '\(version)', entities that differ: \(differing.joined(separator: ", ")))"
        case let .modelCache(store, reason): "\(store): no model given and the store's model cache cannot be used: \(reason)"
        case .predicate(let error): "\(error)"
        case let .value(key, reason): "--set \(key): \(reason)"
        case .mutation(let error): "\(error)"
        case let .unreadableValue(store, entity, primaryKey, attribute, reason): "\(store): \(entity) Z_PK \(primaryKey), attribute \(attribute): \(reason)"
        case let .invalidText(store, entity, primaryKey, attribute):
            "\(store): \(entity) Z_PK \(primaryKey), attribute \(attribute): text that is not valid UTF-8 cannot be shown without changing it"
        case let .misfitValue(store, entity, primaryKey, attribute, reason): "\(store): \(entity) Z_PK \(primaryKey), attribute \(attribute): \(reason)"
        case .sqlite(let error): "\(error)"
        case .output(let error): "\(error)"
        }
    }

    /// What the environment lacked while the store was read or changed (no room for SQLite's
    /// temporary files or the store's journal, no descriptor left, a read-only folder): no fault of
    /// the store, the model or the predicate.
    public var environmentFailure: WriteFailure? {
        switch self {
        case .store(let error): error.writeFailure
        case .sqlite(let error): error.writeFailure
        case .mutation(.store(let error)): error.writeFailure
        case .mutation(.sqlite(let error)): error.writeFailure
        case .output(let error): error.writeFailure
        default: nil
        }
    }
}
