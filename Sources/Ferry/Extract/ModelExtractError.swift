import FerryModel
import FerryStore

/// Why `ferry model extract` wrote nothing. Each case names the file concerned.
public enum ModelExtractError: Error, CustomStringConvertible {
    /// The request itself is wrong (an output that is no `.xcdatamodeld`, a version name that
    /// cannot name a folder, an output that is the store).
    case invalidRequest(String)
    /// The store could not be opened or is not a Core Data store.
    case store(StoreReaderError)
    /// The store has no model cache to extract (a store older than framework version 754, or an
    /// emptied `Z_MODELCACHE`).
    case noModelCache(path: String)
    /// The model cache cannot be decoded.
    case modelCache(path: String, ModelArchiveError)
    /// The output exists and `--force` was not given.
    case destinationExists(String)
    /// The bundle could not be written or put in place.
    case cannotWrite(path: String, reason: String)
    /// The model, written as Xcode's XML, does not load back (a name the XML reader refuses): the
    /// model is at fault, not the destination. `source` is the store it came from, when one did.
    case doesNotLoadBack(source: String?, reason: String)
    /// The written XML does not load back with the store's version hashes: for Core Data it would
    /// be another model. `unwritten` lists what the XML could not hold.
    case hashesDiffer(store: String, entities: [String], unwritten: [UnwrittenModelPart])

    public var description: String {
        switch self {
        case .invalidRequest(let reason): reason
        case .store(let error): error.description
        case .noModelCache(let path): "\(path): the store holds no model (Z_MODELCACHE is missing or empty), so there is none to extract"
        case let .modelCache(path, error): "\(path): Z_MODELCACHE cannot be decoded: \(error.description)"
        case .destinationExists(let path): "\(path) exists (use --force to replace it)"
        case let .cannotWrite(path, reason): "\(path): cannot write: \(reason)"
        case let .doesNotLoadBack(source, reason):
            (source.map { "\($0): its model" } ?? "the model") + " does not load back from Xcode's XML, so nothing was written: \(reason)"
        case let .hashesDiffer(store, entities, unwritten):
            "the written model does not have \(store)'s version hashes (entities \(entities.joined(separator: ", "))), so nothing was kept"
                + unwritten.map { "\n  not expressible in Xcode's XML: \($0)" }.joined()
        }
    }
}
