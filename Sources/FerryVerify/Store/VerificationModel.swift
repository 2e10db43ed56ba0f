import FerryFormats
import FerryModel
import FerryStore

/// Where the verifier takes the store's model from.
public enum VerificationModel: Sendable {
    /// This model version.
    case model(ManagedObjectModel)
    /// The version of this bundle whose entity hashes match the store's metadata (the one that
    /// matches most entities; a store with corrupted hashes is then still read with its version,
    /// and the hash check reports the difference).
    case bundle(ModelBundle)
    /// The model Core Data cached in the store (`Z_MODELCACHE`, framework 754 on).
    case modelCache
}

/// Picks the model a store is verified with.
enum ModelChoice {
    /// The model, and how it was chosen (for the report).
    static func resolve(_ source: VerificationModel, store: CoreDataStoreReader,
                        database: SQLiteDatabase) throws(VerificationError) -> (model: ManagedObjectModel, description: String) {
        switch source {
        case .model(let model):
            return (model, "\(model.name) (given)")
        case .bundle(let bundle):
            let stored = store.metadata.versionHashes
            let scored = bundle.versions.map { version in
                let hashes = VersionHasher.hashes(of: version).entityHashes
                return (version, hashes.filter { stored[$0.key] == $0.value }.count, hashes == stored)
            }
            if let exact = scored.last(where: { $0.2 }) {
                return (exact.0, "\(bundle.name) / \(exact.0.name) (matched by version hashes)")
            }
            guard let best = scored.max(by: { $0.1 < $1.1 }), best.1 > 0 else {
                throw .noMatchingVersion(path: store.path, bundle: bundle.name)
            }
            return (best.0, "\(bundle.name) / \(best.0.name) (closest by version hashes: \(best.1) entities match)")
        case .modelCache:
            let content = try modelCache(database: database, path: store.path)
            do {
                return (try ModelArchiveDecoder.decodeModelCache(content, name: "Z_MODELCACHE"), "the store's Z_MODELCACHE")
            } catch {
                throw .noModel(path: store.path, reason: "Z_MODELCACHE: \(error)")
            }
        }
    }

    /// The bytes of the only `Z_MODELCACHE` row.
    static func modelCache(database: SQLiteDatabase, path: String) throws(VerificationError) -> [UInt8] {
        do {
            let exists = try database.scalarInteger("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'")
            guard exists == 1 else { throw VerificationError.noModel(path: path, reason: "the store has no Z_MODELCACHE table") }
            let statement = try database.prepare("SELECT Z_CONTENT FROM Z_MODELCACHE")
            guard try statement.step(), let bytes = statement.bytes(at: 0) else {
                throw VerificationError.noModel(path: path, reason: "Z_MODELCACHE has no content")
            }
            return bytes
        } catch let error as VerificationError {
            throw error
        } catch let error as SQLiteError {
            throw .unreadableStore(.sqlite(error))
        } catch {
            throw .noModel(path: path, reason: "\(error)")
        }
    }
}
