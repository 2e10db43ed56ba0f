import FerryFormats
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why writing a Core Data store failed.
public enum StoreWriterError: Error, Equatable, Sendable, CustomStringConvertible, WriteFailureCarrying {
    case layout(StoreLayoutError)
    case sqlite(SQLiteError)
    /// The binary plist writer refused the metadata.
    case metadataEncoding(String)
    /// A store to append to cannot be used.
    case existingStore(path: String, reason: String)
    /// The model could not be archived into `Z_MODELCACHE`.
    case modelCacheEncoding(String)
    /// The version hashes do not cover the model's entities with 32 bytes each.
    case versionHashMismatch(entity: String, reason: String)
    case unknownEntity(String)
    /// A relationship whose pairs are not kept in a join table (it is not many-to-many, or unknown).
    case noJoinTable(entity: String, relationship: String)
    /// Abstract entities have no rows of their own.
    case abstractEntity(String)
    /// A row had the wrong number of values.
    case valueCount(entity: String, expected: Int, got: Int)
    /// The writer was already finished or discarded.
    case writerClosed(path: String)
    /// A file operation failed with this `errno`.
    case fileSystem(path: String, operation: String, errno: Int32)
    /// The store is not renamed over a file that exists (created while it was built).
    case destinationExists(String)
    /// The destination is a folder: a store is one file, and no folder is replaced by one.
    case destinationIsFolder(String)
    /// The destination is a device, FIFO or socket: a store replaces only a file.
    case destinationIsSpecial(String)
    /// The folder the store goes in is not there.
    case destinationFolderMissing(String, folder: String)
    /// The store to replace changed (or appeared) while its replacement was built: another run
    /// or process wrote it, and replacing it would lose what it wrote.
    case destinationChanged(String)
    /// The written store's check could not run (the store was not put in place).
    case unverifiable(path: String, reason: String)
    /// The store to replace is open in another process (a live WAL connection), which would go
    /// on writing to the replaced file.
    case destinationInUse(String)
    /// The `-wal` of the store to replace (or append to) holds commits that could not be folded
    /// into its file; nothing beside it was removed and nothing was replaced.
    case unfoldedLog(path: String, reason: String)
    /// Every `Z_PK` of a root entity's hierarchy is taken (a source kept the largest key), so no
    /// object can be added to it.
    case primaryKeysExhausted(root: String)
    /// The destination's external data folder (`ExternalDataFolder`) cannot take the files of the
    /// values kept outside the store (`CoreDataStoreWriter.keepOutside`): it is not a real folder,
    /// or holds a file of one's name with other bytes, which the store in place may name.
    case externalDataFolder(path: String, reason: String)

    /// Whether the model, not the destination, is at fault: it has no store layout, or cannot be
    /// archived into the store (bad input, not "cannot write").
    public var isModelProblem: Bool {
        switch self {
        case .layout, .modelCacheEncoding: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .layout(let error): "store layout: \(error)"
        case .sqlite(let error): "\(error)"
        case .metadataEncoding(let reason): "cannot encode the store metadata plist: \(reason)"
        case let .existingStore(path, reason): "\(path): cannot append: \(reason)"
        case let .externalDataFolder(path, reason): "\(path): \(reason); nothing was written"
        case .modelCacheEncoding(let reason): "cannot archive the model into Z_MODELCACHE: \(reason)"
        case let .versionHashMismatch(entity, reason): "version hash of entity \(entity): \(reason)"
        case .unknownEntity(let name): "entity \(name) is not in the model"
        case let .noJoinTable(entity, relationship): "\(entity).\(relationship) has no join table (it is not a many-to-many relationship of the model)"
        case .abstractEntity(let name): "entity \(name) is abstract and cannot have rows"
        case let .valueCount(entity, expected, got): "entity \(entity): expected \(expected) values per row, got \(got)"
        case .writerClosed(let path): "the writer for \(path) is already finished or discarded"
        case let .fileSystem(path, operation, code):
            WriteFailure(errno: code, path: path)?.description ?? "\(operation) \(path) failed: \(String(cString: strerror(code)))"
        case .primaryKeysExhausted(let root):
            "every Z_PK of \(root) is taken: a source keeps the largest key, \(Int64.max), so no object of \(root) can be added after it"
        case .destinationExists(let path): "\(path) exists (it appeared while the store was built); use --force to replace it"
        case .destinationIsFolder(let path): "\(path) is a folder; --out names the store file to write (a folder is never replaced)"
        case .destinationChanged(let path):
            "\(path) changed while this run built its replacement (another run or process wrote it); nothing was written: run again"
        case .destinationIsSpecial(let path):
            "\(path) is a device, FIFO or socket; --out names the store file to write (only a file is ever replaced, even with --force)"
        case let .destinationFolderMissing(path, folder): "\(path): the folder \(folder) is not there (create it first); nothing was written"
        case let .unverifiable(path, reason): "\(path): the written store could not be verified, so it was not put in place: \(reason)"
        case let .unfoldedLog(path, reason):
            "\(path): its -wal holds commits that could not be folded into the store's file (\(reason)); "
                + "nothing was written, and the store keeps its -wal"
        case .destinationInUse(let path):
            "\(path): another process has it open; replacing it would leave that process writing to the replaced file, "
                + "so nothing was written (close it first)"
        }
    }

    /// The write that found no room (a full disk, the file size limit), when that is the failure.
    public var writeFailure: WriteFailure? {
        switch self {
        case .sqlite(let error): error.writeFailure
        case let .fileSystem(path, _, code): WriteFailure(errno: code, path: path)
        default: nil
        }
    }
}

extension StoreWriterError {
    /// Runs SQLite work, reporting its failure as `.sqlite`.
    static func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(StoreWriterError) -> T {
        do { return try body() } catch { throw .sqlite(error) }
    }
}
