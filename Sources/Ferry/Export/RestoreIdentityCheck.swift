import FerryFormats
import FerryModel
import FerryStore

/// A restore's check that the store it built keeps the backed-up store's identity as the
/// manifest (or the PostgreSQL catalog) records it, read back from the built store rather than
/// taken from its writer: the store UUID (objects' URIs name it), each root's `Z_MAX` no lower
/// than the recorded one (a new object must never take a deleted one's key), and the
/// application's own metadata keys.
enum RestoreIdentityCheck {
    /// Throws a verification failure of `outputPath` naming what the store at `path` does not keep
    /// of the identity `manifest` records.
    static func check(_ path: String, manifest: ExportManifest, model: ManagedObjectModel, outputPath: String) throws(ExportError) {
        try check(path, storeUUID: manifest.storeUUID, primaryKeyMaxima: manifest.state.primaryKeyMaxima,
                  applicationMetadata: try manifest.applicationMetadataEntries(), model: model, outputPath: outputPath)
    }

    /// Throws a verification failure of `outputPath` naming what the store at `path` does not keep
    /// of the recorded identity.
    static func check(_ path: String, storeUUID: StoreUUID, primaryKeyMaxima: [String: Int64], applicationMetadata entries: [String: PropertyListValue],
                      model: ManagedObjectModel, outputPath: String) throws(ExportError) {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch {
            throw .restore(reason: "\(outputPath): cannot read the restored store back: \(error)")
        }
        var problems: [String] = []
        if store.metadata.storeUUID != storeUUID {
            problems.append("its UUID is \(store.metadata.storeUUID), the backed-up store's \(storeUUID)")
        }
        for root in model.entities where root.parentName == nil {
            let names = [root.name] + (root.renamingIdentifier.map { [$0] } ?? [])
            guard let recorded = names.compactMap({ primaryKeyMaxima[$0] }).max() else { continue }
            let kept = store.primaryKeys.first { $0.name == root.name }?.maxPrimaryKey ?? 0
            if kept < recorded { problems.append("Z_MAX of \(root.name) is \(kept), below the backed-up store's \(recorded)") }
        }
        let restored = store.metadata.applicationEntries
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) where !PropertyListValue.sameKept(restored[key], value) {
            problems.append("the application's metadata key \(key) is \(restored[key] == nil ? "missing" : "another value")")
        }
        guard !problems.isEmpty else { return }
        throw .verification(path: outputPath, reason: "the restored store does not keep the backed-up store's identity: "
            + problems.joined(separator: "; "))
    }
}
