import FerryFormats
import FerryStore
import FoundationEssentials

/// The files of one import against the store's list of files imported before (`ImportedFiles`):
/// refuses a file whose bytes the store appended to lists, or a file given twice, before any
/// record is read, and digests the rest on the other core while the import reads them, for the
/// list the new store keeps.
///
/// Only regular files are digested (a FIFO or standard input would be consumed); a file only
/// needs digesting before the import when its size is one the list or another file has.
struct ImportedFileCheck {
    /// SHA-256 and size of a file.
    typealias Digest = (sha256: String, bytes: Int)

    let listed: ImportedFiles
    private let early: [String: Digest]
    private let rest: BackgroundWork<[String: Digest], Never>

    /// - Parameters:
    ///   - sources: the import's files, as given.
    ///   - store: the store appended to, whose list is read; nil for a new store.
    ///   - refuses: whether a file imported before, or given twice, is refused (not with
    ///     `--again`, nor where a uniqueness constraint or `--key` catches a record imported
    ///     again).
    init(sources: [String], store: String?, refuses: Bool) throws(ImportError) {
        if let store {
            do { listed = ImportedFiles(metadata: try CoreDataStoreReader(path: store).metadata.propertyList) } catch {
                throw .store(.existingStore(path: store, reason: ErrorText.reason(of: error, at: store)))
            }
        } else {
            listed = ImportedFiles(metadata: [:])
        }
        let files = sources.filter { Self.digestible($0) }
        let sizes = files.map { FileInfo.size(atPath: FileInfo.linkTarget(of: $0)) ?? -1 }
        var early: [String: Digest] = [:]
        if refuses {
            for (index, file) in files.enumerated() {
                let size = sizes[index]
                guard listed.holds(bytes: size) || sizes.filter({ $0 == size }).count > 1 else { continue }
                guard let digest = Self.digest(file) else { continue }
                if let entry = listed.entry(sha256: digest.sha256, bytes: digest.bytes) {
                    throw .importedBefore(source: file, store: store ?? "", name: entry.name, at: entry.importedAt, written: entry.written)
                }
                if let twin = early.first(where: { $0.value == digest })?.key {
                    throw .givenTwice(source: file, sameAs: twin)
                }
                early[file] = digest
            }
        }
        self.early = early
        let remaining = files.filter { early[$0] == nil }
        rest = BackgroundWork { .success(Dictionary(remaining.compactMap { file in Self.digest(file).map { (file, $0) } }) { first, _ in first }) }
    }

    /// The list the store keeps after the import: the one before, with the files of `ledgers`
    /// (read as `entity` of `modelVersion`) added with the records written from each.
    func list(after ledgers: [SourceLedger], entity: String, modelVersion: String) -> ImportedFiles {
        let digests = early.merging(rest.wait()) { first, _ in first }
        let now = ISO8601Date.format(Date().timeIntervalSinceReferenceDate.rounded(.down)) ?? ""
        var seen = Set<String>()
        let files = ledgers.map(\.source).filter { seen.insert($0).inserted }.compactMap { source -> ImportedFiles.File? in
            guard let digest = digests[source] else { return nil }
            let written = ledgers.filter { $0.source == source }.reduce(0) { $0 + $1.written }
            return ImportedFiles.File(name: source, sha256: digest.sha256, bytes: digest.bytes, entity: entity, modelVersion: modelVersion,
                                      importedAt: now, written: written)
        }
        return listed.adding(files)
    }

    /// A file, or a link to one, that can be read a second time: a regular file.
    private static func digestible(_ path: String) -> Bool {
        path != "-" && FileInfo.kind(atPath: FileInfo.linkTarget(of: path)) == .regularFile
    }

    private static func digest(_ path: String) -> Digest? {
        (try? FileDigest.sha256(of: FileInfo.linkTarget(of: path), regularFileOnly: true)).map { ($0.digest, $0.size) }
    }
}
