import CSQLite
import FerryFormats

/// Why a store (Core Data or plain SQLite) could not be read. Every case names the file and
/// what is wrong with it; row-level cases also name the table, the row's key and the column.
public enum StoreReaderError: FileError, Equatable, Sendable, WriteFailureCarrying {
    /// The file is missing or cannot be opened (`reason` says so: `cannot open: …`).
    case cannotOpen(path: String, reason: String)
    /// The file is not an SQLite database (empty, wrong header, `SQLITE_NOTADB`).
    case notSQLite(path: String, reason: String)
    /// The file is an SQLite database but truncated or damaged (`SQLITE_CORRUPT`, `SQLITE_FORMAT`,
    /// short reads, or a header that promises more pages than the file has).
    case corrupt(path: String, reason: String)
    /// The database lacks the bookkeeping tables of a Core Data store.
    case notCoreDataStore(path: String, missingTables: [String])
    /// Core Data's bookkeeping contradicts itself: `Z_PRIMARYKEY` lists an entity's number or name
    /// twice (SQLite reads the database soundly; the store does not say which row is the entity's).
    case inconsistentBookkeeping(path: String, reason: String)
    /// `Z_METADATA` has no usable row, or its plist does not have the expected shape.
    case invalidMetadata(path: String, reason: String)
    /// The model cannot be laid out as a store, so its records cannot be found.
    case invalidModel(path: String, reason: String)
    /// A table the model needs is not in the store (`owner` is the entity or relationship).
    case missingTable(path: String, table: String, owner: String)
    /// A column the model needs is not in its table.
    case missingColumn(path: String, table: String, column: String, owner: String)
    /// An entity table's `Z_PK` is not its `INTEGER PRIMARY KEY` as Core Data declares it
    /// (`reason` says how it is declared and what follows).
    case keyNotRowID(path: String, table: String, reason: String)
    /// The entity is not in the model (or the database) being read.
    case unknownEntity(path: String, entity: String)
    /// The relationship is not declared by the entity or its ancestors.
    case unknownRelationship(path: String, entity: String, relationship: String)
    /// A stored value does not fit the attribute type or key it is read as.
    case invalidValue(path: String, table: String, primaryKey: Int64, column: String, reason: String)
    /// A row's `Z_ENT` is the number of an abstract entity, of which Core Data never stores an
    /// object: no reader may carry the row as one of its entity, nor drop it (the first such row).
    case abstractEntityRow(path: String, table: String, primaryKey: Int64, entityNumber: Int64, entity: String)
    /// No version of a model bundle has the store's version hashes; for the closest version, the
    /// entities whose hashes differ.
    case modelMismatch(path: String, closestVersion: String, differing: [String])
    /// Any other SQLite failure.
    case sqlite(SQLiteError)
    /// The environment kept the store from being read (no descriptor left to open it, no room
    /// for a copy it is read through): no fault of the store.
    case environment(WriteFailure)

    /// The file the error is about.
    public var path: String {
        switch self {
        case .cannotOpen(let path, _), .notSQLite(let path, _), .corrupt(let path, _), .notCoreDataStore(let path, _),
             .inconsistentBookkeeping(let path, _),
             .invalidMetadata(let path, _), .invalidModel(let path, _), .missingTable(let path, _, _), .missingColumn(let path, _, _, _), .keyNotRowID(let path, _, _),
             .unknownEntity(let path, _), .unknownRelationship(let path, _, _), .invalidValue(let path, _, _, _, _),
             .abstractEntityRow(let path, _, _, _, _), .modelMismatch(let path, _, _):
            path
        case .sqlite(let error):
            error.path
        case .environment(let failure):
            failure.path
        }
    }

    public var description: String { writeFailure.map(\.description) ?? "\(path): \(reason)" }

    /// What the environment lacked when the store was read or written (no room for SQLite's
    /// temporary files, no descriptor left, a read-only folder): no fault of the store.
    public var writeFailure: WriteFailure? {
        switch self {
        case .sqlite(let error): error.writeFailure
        case .environment(let failure): failure
        default: nil
        }
    }

    /// What is wrong with the store, without its path.
    public var reason: String {
        switch self {
        case let .cannotOpen(_, reason): reason
        case let .notSQLite(_, reason): "not an SQLite database: \(reason)"
        case let .corrupt(_, reason): "the database is truncated or corrupt: \(reason)"
        case let .inconsistentBookkeeping(_, reason): "Core Data's bookkeeping contradicts itself: \(reason)"
        case let .notCoreDataStore(_, missing): "not a Core Data store: no \(missing.joined(separator: " or ")) table"
        case let .invalidMetadata(_, reason): "Z_METADATA: \(reason)"
        case let .invalidModel(_, reason): "the model cannot be read from a store: \(reason)"
        case let .missingTable(_, table, owner): "no table \(table) for \(owner)"
        case let .keyNotRowID(_, table, reason): "table \(table): \(reason); Core Data declares Z_PK INTEGER PRIMARY KEY, its row ID"
        case let .missingColumn(_, table, column, owner): "table \(table) has no column \(column) for \(owner)"
        case let .unknownEntity(_, entity): "entity \(entity) is not in the model read"
        case let .unknownRelationship(_, entity, relationship): "entity \(entity) has no relationship \(relationship)"
        case let .invalidValue(_, table, key, column, reason): "table \(table), row \(key), column \(column): \(reason)"
        case let .abstractEntityRow(_, table, key, number, entity):
            "table \(table), row \(key) (Z_PK): its Z_ENT \(number) is entity \(entity), which is abstract and cannot have rows"
        case let .modelMismatch(_, version, differing):
            "does not match any version of the model (closest: '\(version)', entities that differ: \(differing.joined(separator: ", ")))"
        case .sqlite(let error): error.reason
        case .environment(let failure): failure.description
        }
    }

    /// Classifies an SQLite failure: damaged files and non-databases get their own cases; one the
    /// environment caused (`SQLiteError.writeFailure`) stays whole, as it is no fault of the store.
    init(_ error: SQLiteError) {
        if error.writeFailure != nil {
            self = .sqlite(error)
            return
        }
        switch error.primaryCode {
        case SQLITE_NOTADB: self = .notSQLite(path: error.path, reason: error.message)
        case SQLITE_CORRUPT, SQLITE_FORMAT: self = .corrupt(path: error.path, reason: error.message)
        case SQLITE_IOERR where error.code == SQLITE_IOERR | 2 << 8: // SQLITE_IOERR_SHORT_READ (not imported)
            self = .corrupt(path: error.path, reason: error.message)
        case SQLITE_CANTOPEN: self = .cannotOpen(path: error.path, reason: "cannot open: \(error.message)")
        default: self = .sqlite(error)
        }
    }

    /// Runs SQLite work, classifying its failure.
    static func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(StoreReaderError) -> T {
        do { return try body() } catch { throw StoreReaderError(error) }
    }
}
