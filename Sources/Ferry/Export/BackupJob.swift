import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry backup`: a verified export into a new timestamped folder of a backup folder, for
/// schedulers. Under the folder's lock (`FolderLock`), the `.incomplete-<UUID>` folders of dead
/// runs are removed (`IncompleteBackup`), the export is written into a new one (an
/// `OwnedTemporary`), every file is re-read and checked against the manifest (SHA-256, size, record count), the folder is
/// restored into a scratch store as `ferry restore` does, which compares every record and pair with
/// the store's fingerprints (`restoreCheck`), the folder is renamed to its UTC timestamp
/// (`20240301T123005Z`), and only then are the oldest backups of the same store beyond `keep`
/// removed (`BackupRetention`). A failure (or SIGINT/SIGTERM) removes the new folder and leaves
/// earlier backups as they were.
///
/// First the store itself must pass `ferry verify`'s checks (`StoreVerifier`, without
/// fingerprints, with SQLite's full integrity check, which compares every index with its table): a store holding what its model forbids (a NULL in a required attribute left by a
/// batch update, a repeated key, a value of the wrong storage class) exports, but its backup would
/// not restore, and a backup that exits 0 must be one `restore` rebuilds. Such a store is refused
/// (`ExportError.verification`) before anything is written, and no older backup is removed.
public struct BackupJob {
    /// The store to back up.
    public var storePath: String
    /// The folder holding the backups.
    public var folder: String
    /// Backups to keep (the newest); nil keeps all.
    public var keep: Int?
    /// How the files are written (format, gzip, model); its folder and selection are ignored.
    public var export: ExportRequest
    /// Whether the new backup is restored before it counts as one: its files are checked
    /// against the manifest either way, but only a restore compares what they hold with the
    /// store's fingerprints (a fault of the export's writer would otherwise be found when the
    /// backup is needed, after rotation removed the older ones).
    public var restoreCheck = true

    public init(storePath: String, folder: String, keep: Int? = nil, format: ExportFormat = .ndjson,
                gzipLevel: Int? = 6, modelPath: String? = nil) {
        self.storePath = storePath
        self.folder = folder
        self.keep = keep
        export = ExportRequest(storePath: storePath, outputFolder: folder, format: format, gzipLevel: gzipLevel, modelPath: modelPath)
    }

    /// What a backup did.
    public struct Summary: Sendable {
        /// The new backup folder.
        public var path: String
        public var manifest: ExportManifest
        /// Backup folders removed beyond `keep`.
        public var removed: [String]
        /// Old backups beyond `keep` that could not be removed, or that were left because which
        /// store they are of is not known, each with why: the backup itself is made and kept, so
        /// these are warnings, not a failure.
        public var notRemoved: [String] = []
    }

    /// Makes the backup; `progress` is told how far its export is.
    public func run(progress: @escaping (JobProgress) -> Void = { _ in }) throws(ExportError) -> Summary {
        if let keep, keep < 1 { throw .invalidRequest("--keep must be at least 1") }
        // A store refused before its first backup leaves no folder behind (its lock file stays
        // once made); into a folder that exists, a run that another one holds stops at once.
        let folderIsNew = !FileManager.default.fileExists(atPath: folder)
        var checked: CheckedStore?
        defer { checked?.copy?.folder.remove() }
        if folderIsNew {
            progress(JobProgress(phase: "verifying the store"))
            checked = try checkStore()
        }
        do { try FolderCreation.make(folder) } catch {
            throw .cannotWrite(path: folder, reason: error.reason)
        }
        let lock = try FolderLock(folder: folder, fileName: FolderLock.backupFileName)
        defer { lock.release() }
        if !folderIsNew {
            progress(JobProgress(phase: "verifying the store"))
            checked = try checkStore()
        }
        IncompleteBackup.sweep(folder: folder)
        let building: OwnedTemporary
        do { building = try OwnedTemporary.create(kind: .folder) { folder + "/" + IncompleteBackup.name.fresh() } } catch {
            throw .writing(folder, error)
        }
        let temporary = building.path
        var request = export
        request.storePath = storePath
        request.copyToRead = checked?.copy?.made
        request.outputFolder = temporary
        request.ownedFolder = building
        request.entities = []
        request.predicate = nil
        request.sort = nil
        request.durable = true
        request.requiresFingerprints = true
        let manifest: ExportManifest
        do {
            do { _ = try ExportJob(request: request).run(progress: progress) } catch .changedWhileReading where checked?.copy == nil {
                // Written again after its check: one committed state of it is checked and backed up.
                let made = try checkedCopy()
                checked = made
                request.copyToRead = made.copy?.made
                _ = try ExportJob(request: request).run(progress: progress)
            }
            progress(JobProgress(phase: "verifying the backup"))
            manifest = try ExportVerifier.verify(folder: temporary, countRecords: true)
            if restoreCheck, let model = checked?.model {
                try BackupRestoreCheck(backup: temporary, folder: folder, model: model).run(progress: progress)
            }
        } catch {
            building.remove()
            // Named as the backup folder: the temporary folder's name means nothing to the reader.
            // A failure elsewhere (SQLite's temporary files, the scratch store the backup is
            // restored into) keeps the folder it was met in: that is where room is missing.
            if let failure = error.writeFailure {
                let inBackup = !failure.inTemporaryFiles && failure.path.hasPrefix(temporary)
                throw .noRoom(inBackup ? WriteFailure(cause: failure.cause, path: folder) : failure)
            }
            throw error
        }
        let target: String
        do { target = try finalName(for: manifest) } catch {
            building.remove()
            throw error
        }
        do { try FilePath.rename(temporary, to: target, replacing: false) } catch {
            building.remove()
            throw .writing(target, error)
        }
        building.release()
        var summary = Summary(path: target, manifest: manifest, removed: [])
        if let keep { (summary.removed, summary.notRemoved) = BackupRetention(folder: folder, keep: keep).prune(keeping: target, manifest: manifest) }
        return summary
    }

    /// A consistent copy of the store, made when another process writes it while it is checked.
    private struct StoreCopy {
        let made: CommittedStoreCopy
        let folder: ScratchFolder
        var path: String { made.path }
    }

    /// A store that passed its check: the model version it is exported with, and the copy that
    /// was checked, when the store was written meanwhile.
    private struct CheckedStore {
        var copy: StoreCopy?
        let model: ManagedObjectModel
    }

    /// Refuses a store that fails `ferry verify`'s checks (see the type's comment), naming the
    /// first failures. A store that changes while it is checked (an app writing it: its pages
    /// cannot be read as one state) is copied as one committed state, through SQLite's online
    /// backup, and the copy is checked and backed up.
    private func checkStore() throws(ExportError) -> CheckedStore {
        do {
            return CheckedStore(copy: nil, model: try checkStore(at: storePath))
        } catch .changedWhileReading {
            return try checkedCopy()
        }
    }

    /// A copy of one committed state of the store, made through SQLite's online backup in a
    /// scratch folder, and checked.
    private func checkedCopy() throws(ExportError) -> CheckedStore {
        let folder: ScratchFolder
        do { folder = try ScratchFolder.make(purpose: "backup") } catch { throw .writing(storePath, error) }
        let copy: StoreCopy
        do { copy = StoreCopy(made: try CommittedStoreCopy.make(of: storePath, in: folder), folder: folder) } catch {
            folder.remove()
            // No room for the copy is the temporary folder's, not a fault of the store.
            throw error.writeFailure.map { .noRoom($0) } ?? .store(.sqlite(error))
        }
        do { return CheckedStore(copy: copy, model: try checkStore(at: copy.path)) } catch {
            folder.remove()
            throw error
        }
    }

    /// Checks the store, or its copy, at `path` (messages name the store); returns the model
    /// version it is read with.
    private func checkStore(at path: String) throws(ExportError) -> ManagedObjectModel {
        let store: CoreDataStoreReader
        do { store = try CoreDataStoreReader(path: path) } catch { throw .store(error) }
        // The model the export reads the store with, and the export's own checks that the store
        // has its tables and columns and that its entities' files can be told apart: a store the
        // export cannot read is bad input (exit 3), as for `ferry export`, not a verification
        // failure.
        let model = try ExportModelSource.resolve(bundlePath: export.modelPath, store: store).model
        do { _ = try store.records(model: model) } catch { throw .store(error) }
        try export.refuseClashingFileNames(of: model.entities.filter { !$0.isAbstract }.map(\.name))
        let report: VerificationReport
        // SQLite's full integrity check: an index that lost entries passes the quick one, and
        // to-many lists are read through their index.
        let verify = { () throws(VerificationError) in
            try StoreVerifier(path: path, model: .model(model)).verify(options: VerificationOptions(fullIntegrityCheck: true, fingerprints: false))
        }
        do {
            // A store an app writes meanwhile is checked again once, as its export is read again.
            do { report = try verify() } catch .changedWhileVerifying { report = try verify() }
        } catch .changedWhileVerifying {
            throw .changedWhileReading(storePath)
        } catch {
            throw .model(reason: "\(storePath) cannot be verified before its backup: \(error)")
        }
        // Schema objects Core Data never writes are the file's, not its records': the backup
        // does not carry them (and says so), and its restore is a store without them.
        let failures = report.failures.filter { $0.check != StoreVerifier.schemaObjectsCheck }
        guard !failures.isEmpty else { return model }
        let named = failures.prefix(3).map { "\($0.check) \($0.subject): \($0.message)" }.joined(separator: "; ")
        throw .verification(path: storePath, reason: "fails \(failures.count) check\(failures.count == 1 ? "" : "s") of ferry verify, so its "
            + "backup would not restore: \(named)\(failures.count > 3 ? "; …" : "") (ferry verify lists them)")
    }

    /// `<folder>/<UTC timestamp>`, with `-0002`, `-0003`, … when backups of the same second exist:
    /// one more than the highest suffix of that second, never a freed lower one, and of four
    /// digits, so that names sort in the order the backups were made, by `ls` too (`-10` sorted
    /// before `-9`).
    /// - Throws: `ExportError.cannotWrite` when that second has a backup `-9999`: none can follow it.
    private func finalName(for manifest: ExportManifest) throws(ExportError) -> String {
        let stamp = String(manifest.createdAt.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
        guard let name = Self.name(stamp: stamp, besides: (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []) else {
            throw .cannotWrite(path: folder, reason: "it holds a backup \(stamp)-\(Self.highestSuffix): no name is left for another backup of that second")
        }
        return folder + "/" + name
    }

    /// The highest same-second suffix a backup takes.
    static let highestSuffix = 9999

    /// The name of a backup made at `stamp` in a folder that holds `names`; nil when a backup of
    /// that second has the highest suffix (`highestSuffix`).
    static func name(stamp: String, besides names: [String]) -> String? {
        guard let highest = names.filter({ isBackupName($0) && $0.hasPrefix(stamp) }).map(suffix).max() else { return stamp }
        guard highest < highestSuffix else { return nil }
        let number = String(highest + 1)
        return stamp + "-" + String(repeating: "0", count: max(0, 4 - number.count)) + number
    }

    /// `YYYYMMDDTHHMMSSZ`, optionally with a same-second suffix as a backup is named with
    /// (`sameSecondNumber`).
    static func isBackupName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let stamp = parts.first, stamp.count == 16 else { return false }
        let bytes = Array(stamp.utf8)
        let digits = bytes.enumerated().allSatisfy { index, byte in
            index == 8 ? byte == UInt8(ascii: "T") : index == 15 ? byte == UInt8(ascii: "Z") : (0x30...0x39).contains(byte)
        }
        return digits && (parts.count == 1 || sameSecondNumber(parts[1]) != nil)
    }

    /// The number of a same-second suffix (the text after the dash) as Ferry writes it, `0002` to
    /// `9999`, or wrote it before it padded them, `2` to `9999`; nil for any other text (a sign,
    /// a leading zero of no padding, more digits: `-9223372036854775807` made the next name overflow).
    private static func sameSecondNumber(_ text: Substring) -> Int? {
        guard (1...4).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              text.utf8.count == 4 || text.first != "0", let number = Int(text), number >= 2 else { return nil }
        return number
    }

    /// Timestamp order, then the same-second suffix.
    static func isOlder(_ a: String, _ b: String) -> Bool {
        a.prefix(16) == b.prefix(16) ? suffix(a) < suffix(b) : a.prefix(16) < b.prefix(16)
    }

    /// The same-second suffix of a backup name (1 for none).
    static func suffix(_ name: String) -> Int { sameSecondNumber(name.dropFirst(17)) ?? 1 }
}
