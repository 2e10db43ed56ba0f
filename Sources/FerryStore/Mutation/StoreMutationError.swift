import CSQLite
/// Why a delete or an update was refused or failed. Nothing is changed in the store when one
/// of these is thrown: every mutation runs in one transaction that is rolled back.
public enum StoreMutationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store cannot be opened for writing, or is not a Core Data store of the model.
    case store(StoreReaderError)
    /// The predicate does not parse or does not fit the model.
    case predicate(FetchPredicateError)
    /// `entity` has no attribute `key` (or it is transient and has no column).
    case unknownAttribute(entity: String, key: String)
    /// A value does not fit the attribute's type.
    case typeMismatch(entity: String, attribute: String, reason: String)
    /// NULL was given for a required (non-optional) attribute.
    case requiredAttribute(entity: String, attribute: String)
    /// `attribute` is derived: Core Data computes it (`derivation`) and no update may set it.
    case derivedAttribute(entity: String, attribute: String, derivation: String)
    /// The derived attribute `derived` (`Entity.attribute`) reads `attribute` (an attribute, or a
    /// relationship its key path goes through), and only Core Data recomputes it: changing
    /// `attribute` would leave it stale.
    case readByDerivedAttribute(entity: String, attribute: String, derived: String, derivation: String)
    /// After the update two rows of `entity` share `values` on the uniqueness constraint `keys`.
    case uniquenessViolation(entity: String, keys: [String], values: [String])
    /// A Deny relationship of an object being deleted still has destinations.
    case denied([DenyBlock])
    /// Nullify would leave objects that stay without destinations their model requires.
    case requiredReferences([RequiredReference])
    /// Objects that stay would keep keys pointing at deleted objects through to-one
    /// relationships no delete rule reaches (without an inverse, or whose inverse's key is empty).
    case strandedReferences([StrandedReference])
    /// The change would add failures to the store's independent checks (`ChangeCheck`), each
    /// described; it was rolled back.
    case changeBreaksStore([String])
    /// The store holds triggers Core Data did not write (`StoreTriggers`): they would run inside
    /// the change and may change or refuse what its plan does not show.
    case foreignTriggers(path: String, [ForeignTrigger])
    /// The model cannot be used for this operation (for example a relationship the store has no column for).
    case unsupported(String)
    /// Another connection (an app, another run) holds the store's lock past the busy timeout;
    /// nothing was changed.
    case locked(path: String)
    /// Any other SQLite failure; the transaction was rolled back.
    case sqlite(SQLiteError)

    /// `error` of taking or committing the write transaction: `.locked` when another connection
    /// holds the store, else `.sqlite`.
    static func locking(_ error: SQLiteError, path: String) -> StoreMutationError {
        let primary = error.code & 0xFF
        return primary == SQLITE_BUSY || primary == SQLITE_LOCKED ? .locked(path: path) : .sqlite(error)
    }

    public var description: String {
        switch self {
        case .store(let error): "\(error)"
        case .predicate(let error): "\(error)"
        case let .unknownAttribute(entity, key): "entity \(entity) has no stored attribute \"\(key)\""
        case let .typeMismatch(entity, attribute, reason): "\(entity).\(attribute): \(reason)"
        case let .requiredAttribute(entity, attribute): "\(entity).\(attribute) is required and cannot be set to NULL"
        case let .derivedAttribute(entity, attribute, derivation):
            "\(entity).\(attribute) is derived (\(derivation)): Core Data computes it when it saves, it cannot be set"
        case let .readByDerivedAttribute(entity, attribute, derived, derivation):
            "\(entity).\(attribute) is read by the derived attribute \(derived) (\(derivation)), which only Core Data "
                + "recomputes: changing it would leave \(derived) stale"
        case let .uniquenessViolation(entity, keys, values):
            "uniqueness constraint (\(keys.joined(separator: ", "))) of \(entity) would be violated: "
                + "more than one object would have (\(values.joined(separator: ", ")))"
        case .denied(let blocks):
            "delete denied: " + blocks.map(\.description).joined(separator: "; ")
        case .requiredReferences(let references):
            "delete refused, Core Data would not save what stays: " + references.map(\.description).joined(separator: "; ")
        case .strandedReferences(let references):
            "delete refused, objects that stay would point at deleted objects through relationships no delete rule reaches "
                + "(Core Data would leave them dangling; delete those objects first, or with these): "
                + StrandedReference.summary(references).joined(separator: "; ")
        case .changeBreaksStore(let added):
            "the change would add failures to the store's checks, so nothing was changed: " + added.joined(separator: "; ")
        case let .foreignTriggers(path, triggers):
            "\(path) holds triggers Core Data did not write, which would run inside the change and may change or refuse what it "
                + "does not show; nothing was changed (drop them, or restore the store from a backup): "
                + triggers.map(\.description).joined(separator: "; ")
        case .unsupported(let reason): "unsupported: \(reason)"
        case .locked(let path): "\(path) is locked by another process (an app or another run is writing it); nothing was changed"
        case .sqlite(let error): "\(error)"
        }
    }

    /// Runs SQLite work, wrapping its failure.
    static func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(StoreMutationError) -> T {
        do { return try body() } catch { throw .sqlite(error) }
    }
}
