import FerryFormats
import FerryStore
import FoundationEssentials

/// The store UUID a migrated store gets. Core Data keeps a store's UUID (`Z_METADATA.Z_UUID`)
/// and its objects' `Z_PK` and `Z_OPT` when it migrates it, so the `x-coredata://UUID/Entity/pN`
/// URIs apps save stay valid: Ferry keeps the UUID (and the objects' identities) of the first
/// store among the sources, spelled as that store spells it, and makes a new UUID when there is none.
public struct StoreIdentity: Sendable, Codable, Equatable {
    public var uuid: StoreUUID
    /// The source store whose UUID is kept; nil for a new UUID.
    public var keptFrom: String?
    /// Why the store has this UUID, for the report.
    public var reason: String

    /// Chooses the identity for a migration of `sources`.
    static func choose(for sources: [MigrationSource], given: StoreUUID? = nil) throws(MigrateError) -> StoreIdentity {
        let stores = sources.filter { $0.kind == .store }.map(\.path)
        guard let first = stores.first else {
            if let given { return StoreIdentity(uuid: given, keptFrom: nil, reason: "the earlier load of the same sources") }
            return StoreIdentity(uuid: StoreUUID(), keptFrom: nil, reason: "new: no store among the sources")
        }
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: first) } catch {
            throw .store(source: first, reason: ErrorText.reason(of: error, at: first))
        }
        let others = stores.dropFirst()
        let reason = others.isEmpty
            ? "kept from \(first), as Core Data keeps it"
            : "kept from \(first), the first store among the sources (objects of \(others.joined(separator: ", ")) get URIs of this store)"
        return StoreIdentity(uuid: store.metadata.storeUUID, keptFrom: first, reason: reason)
    }
}
