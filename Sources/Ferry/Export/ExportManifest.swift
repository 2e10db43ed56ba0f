import FerryFormats
import FerryModel
import FerryStore

/// `manifest.json` of an export or backup folder: what was exported, from which store and model,
/// and for each file its record count and SHA-256, so the folder can be verified and restored.
public struct ExportManifest: Sendable, Equatable, Codable {
    /// The layout of manifests this version writes.
    public static let currentFormatVersion = 2
    /// The first layout whose manifests carry `manifestSHA256`: a manifest of it or a later one
    /// without it is refused as altered; one of an earlier one is read unchecked (`notChecked`).
    public static let firstDigestedFormatVersion = 2
    public static let fileName = "manifest.json"

    public var formatVersion: Int
    /// `ferry` version that wrote the export.
    public var tool: String
    /// ISO 8601 UTC.
    public var createdAt: String
    /// The store read, as it was given (a relative path is relative to the folder the run
    /// started in).
    public var source: String
    /// `source` from the root with every symbolic link resolved, when it was read: the one name
    /// of the store's file however it was given, which tells the backups of a store from those of
    /// a copy of it (which shares its UUID). Nil in manifests of older versions.
    public var resolvedSource: String? = nil
    /// `Z_UUID` of the store, as it is spelled: a restore writes it back as it is.
    public var storeUUID: StoreUUID
    public var model: ModelInfo
    public var format: ExportFormat
    public var gzip: Bool
    /// `--where` and `--sort` as given, when any.
    public var predicate: String?
    public var sort: String?
    /// The state read: `Z_PRIMARYKEY` maxima and journal facts, in one read transaction.
    public var state: StoreReadState
    public var entities: [EntityFile]
    /// The application's own keys of the store's metadata (`NSPersistentStoreCoordinator.setMetadata`:
    /// an app's schema revision, Apple Accounts' `ACAccountTypeVersion`), as a binary property
    /// list in base64, so that a restore writes them back; nil when the store has none.
    public var applicationMetadata: String? = nil
    /// Core Data's own records the store held, by `Z_NAME` (its persistent history, CloudKit's
    /// mirroring), which the export does not hold and a restore does not bring back; nil when
    /// there were none.
    public var frameworkRecords: [String: Int64]? = nil
    /// Rows of the tables outside Core Data's layout the store held, by table, which the export
    /// does not hold either; nil when there were none.
    public var otherTables: [String: Int64]? = nil
    /// The views and triggers Core Data does not make that the store held (`LeftBehind.otherSchema`),
    /// which a restore does not create; nil when there were none.
    public var otherSchema: [String]? = nil

    /// The fingerprints of the store's records and pairs as exported (`StoreVerifier
    /// .fingerprints()`, computed with SQL on the store, not from the files), so that a restore
    /// compares the store it builds with the store backed up, value by value and pair by pair;
    /// nil for a selection (`--entity`, `--where`), for a store written while it was exported, and
    /// in manifests of older versions.
    public var fingerprints: [FingerprintEntry]? = nil
    /// The revision of `fingerprints` (`ExportManifest.fingerprintRevision` in the manifests this
    /// Ferry writes): one not among `comparedFingerprintRevisions` is not comparable.
    public var fingerprintRevision: Int? = nil
    /// Why a whole export keeps no `fingerprints` (the store was written while it was exported,
    /// or its records could not be fingerprinted), said by export and by the restore that is then
    /// checked by counts only; nil when it keeps them, or was not asked to.
    public var fingerprintsNotKept: String? = nil
    /// `fingerprintsNotKept` of a store written while it was exported.
    public static let writtenWhileExported = "the store was written while it was exported"
    /// How `fingerprints` name the ends of each pair: by `Z_PK`, which a restore keeps.
    static let pairKeying = PairKeying.primaryKeys
    /// `fingerprintRevision` of the manifests this Ferry writes: the records as
    /// `StoreVerifier.fingerprintRevision` 2 fingerprints them, and the pairs between records only
    /// (`pairsBetweenRecordsOnly`): a pair with an end that names no record is in no restored
    /// store, and leaving it out lets a restore compare the rest of its relationship. Bump it with
    /// `StoreVerifier.fingerprintRevision`.
    public static let fingerprintRevision = 3
    /// `fingerprintRevision` of older manifests, whose pairs include those with an end that names
    /// no record, as the store holds them: still compared, less those relationships.
    public static let pairsAsHeldRevision = 2
    /// The revisions a restore compares.
    static let comparedFingerprintRevisions: Set<Int> = [fingerprintRevision, pairsAsHeldRevision]

    /// Pairs of a relationship only its own lists hold (its own inverse, or none) whose source
    /// key names no record of the store (a join row or key left dangling), by
    /// `Entity.relationship`: in no file, and not restored; nil when there are none.
    public var pairsWithoutSource: [String: Int64]? = nil
    /// The failures of `ferry verify`'s relationship checks on the store exported, one line each
    /// (`StoreVerifier.relationshipFailures`): a key naming no row, an entity column naming
    /// another entity than its row's, sides of a one-to-one that disagree. The files hold those
    /// pairs as the store did, which no restored store can (a restore keeps what its records
    /// say); nil when every check held, and for a selection, which is not checked.
    public var relationshipFailures: [String]? = nil
    /// Why `ferry verify`'s relationship checks did not run on the state exported (the store was
    /// written while it was exported, or the checker could not read it): `relationshipFailures`
    /// is then no verdict, and export exits 1 rather than 0; nil when they ran, and for a
    /// selection, which is not checked.
    public var relationshipsNotChecked: String? = nil

    /// SHA-256 (lowercase hex) of the manifest's own content, all but this member
    /// (`ManifestDigest`), written by export and backup and checked whenever a manifest is read:
    /// a restore writes back what the manifest says of the store. Nil in manifests of older versions.
    public var manifestSHA256: String? = nil

    /// Why the manifest itself could not be checked: it was written by a Ferry that gave it no
    /// digest (`manifestSHA256`), so only the files were checked against it; nil when it was.
    public var notChecked: String? {
        manifestSHA256 == nil ? "\(Self.fileName) carries no digest of its own (format \(formatVersion), written by \(tool) before "
            + "manifests had one): the manifest itself could not be checked (the files were, against it)" : nil
    }

    /// What the store held that the export does not.
    public var leftBehind: LeftBehind {
        LeftBehind(frameworkRecords: frameworkRecords ?? [:], otherTables: otherTables ?? [:], otherSchema: otherSchema ?? [])
    }

    /// `applicationMetadata` of a store's metadata entries (nil when there are none).
    static func applicationMetadata(of entries: [String: PropertyListValue]) throws(ExportError) -> String? {
        guard !entries.isEmpty else { return nil }
        do { return PropertyListBase64.text(try BinaryPropertyListWriter().encode(.dictionary(entries))) } catch {
            throw .encoding(reason: "the store's metadata: \(error)")
        }
    }

    /// The metadata entries `applicationMetadata` holds (none when it is nil).
    func applicationMetadataEntries() throws(ExportError) -> [String: PropertyListValue] {
        guard let applicationMetadata else { return [:] }
        guard let entries = Self.applicationMetadataEntries(of: applicationMetadata) else {
            throw .notAnExport(path: Self.fileName, reason: "applicationMetadata is not a base64 property list dictionary")
        }
        return entries
    }

    /// The metadata entries `applicationMetadata(of:)` encoded as `text`; nil when it is not a
    /// base64 property list dictionary.
    static func applicationMetadataEntries(of text: String) -> [String: PropertyListValue]? {
        guard let bytes = PropertyListBase64.decode(text.utf8), case .dictionary(let entries)? = try? PropertyList.decode(bytes) else {
            return nil
        }
        return entries
    }

    /// The model version the records were read through.
    public struct ModelInfo: Sendable, Equatable, Codable {
        /// The bundle's name, when read from a bundle.
        public var bundle: String?
        /// The version's name.
        public var versionName: String
        public var versionIdentifier: String?
        /// Where the model came from: the bundle path or `Z_MODELCACHE`.
        public var origin: String
        /// Entity name → Core Data version hash, base64.
        public var versionHashes: [String: String]
    }

    /// One file: the records of one concrete entity.
    public struct EntityFile: Sendable, Equatable, Codable {
        public var entity: String
        public var file: String
        public var count: Int
        /// Bytes of the file as written (compressed when gzip).
        public var bytes: Int
        /// SHA-256 of the file as written, lowercase hex.
        public var sha256: String
        /// Attribute names and Core Data types, in column order.
        public var attributes: [Field]
        /// Relationships: each record holds destination `Z_PK`s (a number for to-one, a list for to-many).
        public var relationships: [Link]
        /// The values of the file's records that the store kept outside their rows, in files of
        /// its external data folder (`.NAME_SUPPORT/_EXTERNAL_DATA`, attributes that allow
        /// external storage): by attribute, then by `Z_PK` (decimal, as JSON keys are text), the
        /// name of each value's file. The file itself holds the values; a restore writes these
        /// back into files of those names, the rest in their rows, so the store is laid out as it
        /// was. Nil when there are none, for an export with `--where`, and in manifests of older
        /// versions, whose restores keep every value in its row.
        public var externalData: [String: [String: String]]? = nil
    }

    /// The names of `entry`'s `externalData`, by attribute and `Z_PK`; errors name `manifestPath`.
    /// - Throws: `ExportError.notAnExport` for names a restore cannot keep (`ExternalDataText.names`).
    func externalValueNames(of entry: EntityFile, model: ManagedObjectModel, manifestPath: String) throws(ExportError) -> ExternalValueNames {
        do { return try ExternalDataText.names(entry.externalData ?? [:], of: entry.entity, model: model) } catch {
            throw .notAnExport(path: manifestPath, reason: "externalData of \(entry.file): \(error.reason)")
        }
    }

    public struct Field: Sendable, Equatable, Codable {
        public var name: String
        public var type: String
    }

    public struct Link: Sendable, Equatable, Codable {
        public var name: String
        public var destination: String
        public var toMany: Bool
        public var ordered: Bool
        public var inverse: String?
    }

    /// The manifest entry of an entity.
    public func file(for entity: String) -> EntityFile? { entities.first { $0.entity == entity } }
}
