import FoundationEssentials

/// `ferry backup`: a verified export into a new timestamped folder of a backup folder, for
/// schedulers. Under the folder's lock, the export is written into a temporary folder, every
/// file is re-read and checked against the manifest (SHA-256, size, record count), the folder is
/// renamed to its UTC timestamp (`20240301T123005Z`), and only then are the oldest backups
/// beyond `keep` removed. A failure leaves earlier backups as they were.
public struct BackupJob {
    /// The store to back up.
    public var storePath: String
    /// The folder holding the backups.
    public var folder: String
    /// Backups to keep (the newest); nil keeps all.
    public var keep: Int?
    /// How the files are written (format, gzip, model); its folder and selection are ignored.
    public var export: ExportRequest

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
    }

    public func run() throws(ExportError) -> Summary {
        if let keep, keep < 1 { throw .invalidRequest("--keep must be at least 1") }
        let files = FileManager.default
        do { try files.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .cannotWrite(path: folder, reason: "\(error)")
        }
        let lock = try BackupLock(folder: folder)
        defer { lock.release() }
        let temporary = folder + "/.incomplete-" + UUID().uuidString
        var request = export
        request.storePath = storePath
        request.outputFolder = temporary
        request.entities = []
        request.predicate = nil
        request.sort = nil
        request.durable = true
        let manifest: ExportManifest
        do {
            do { _ = try ExportJob(request: request).run() } catch .changedWhileReading {
                _ = try ExportJob(request: request).run()
            }
            manifest = try ExportVerifier.verify(folder: temporary, countRecords: true)
        } catch {
            try? files.removeItem(atPath: temporary)
            throw error
        }
        let target = try finalName(for: manifest)
        do { try files.moveItem(atPath: temporary, toPath: target) } catch {
            try? files.removeItem(atPath: temporary)
            throw .cannotWrite(path: target, reason: "\(error)")
        }
        return Summary(path: target, manifest: manifest, removed: try prune())
    }

    /// `<folder>/<UTC timestamp>`, with `-2`, `-3`, … when a backup of the same second exists.
    private func finalName(for manifest: ExportManifest) throws(ExportError) -> String {
        let stamp = String(manifest.createdAt.prefix(19).filter { $0 != "-" && $0 != ":" }) + "Z"
        var candidate = folder + "/" + stamp
        var suffix = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = folder + "/" + stamp + "-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    /// Removes the oldest backup folders beyond `keep`; returns their paths.
    private func prune() throws(ExportError) -> [String] {
        guard let keep else { return [] }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch {
            throw .cannotWrite(path: folder, reason: "\(error)")
        }
        let backups = names.filter(Self.isBackupName).sorted(by: Self.isOlder)
        var removed: [String] = []
        for name in backups.dropLast(keep) {
            let path = folder + "/" + name
            do { try FileManager.default.removeItem(atPath: path) } catch {
                throw .cannotWrite(path: path, reason: "cannot remove an old backup: \(error)")
            }
            removed.append(path)
        }
        return removed
    }

    /// `YYYYMMDDTHHMMSSZ`, optionally `-n`.
    static func isBackupName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", maxSplits: 1)
        guard let stamp = parts.first, stamp.count == 16 else { return false }
        let bytes = Array(stamp.utf8)
        let digits = bytes.enumerated().allSatisfy { index, byte in
            index == 8 ? byte == UInt8(ascii: "T") : index == 15 ? byte == UInt8(ascii: "Z") : (0x30...0x39).contains(byte)
        }
        return digits && (parts.count == 1 || Int(parts[1]) != nil)
    }

    /// Timestamp order, then the same-second suffix.
    static func isOlder(_ a: String, _ b: String) -> Bool {
        let (stampA, suffixA) = (a.prefix(16), Int(a.dropFirst(17)) ?? 1)
        let (stampB, suffixB) = (b.prefix(16), Int(b.dropFirst(17)) ?? 1)
        return stampA == stampB ? suffixA < suffixB : stampA < stampB
    }
}
