import FerryFormats
import FerryStore
import FoundationEssentials

/// The files of one import against the store's list of files imported before (`ImportedFiles`):
/// refuses a file whose bytes the store appended to lists, or a file given twice, before any
/// record is read, and digests the rest on the other core while the import reads them, for the
/// list the new store keeps.
///
/// Regular files are digested as they are stored (a compressed copy of a file is other bytes); a
/// file only needs digesting before the import when its size is one the list or another file
/// has. A stream (standard input, a pipe, a FIFO) cannot be read twice: it is digested as the
/// import reads it (`StreamDigestTap`) and checked once read, before anything is written.
struct ImportedFileCheck {
    typealias Digest = ImportedFiles.Digest

    let listed: ImportedFiles
    private let entity: String
    private let store: String?
    private let refuses: Bool
    private let early: [String: Digest]
    private let rest: BackgroundWork<[String: Digest], Never>

    /// - Parameters:
    ///   - sources: the import's files, as given.
    ///   - entity: the entity they are imported as (a file imported as another is another).
    ///   - store: the store appended to, whose list is read; nil for a new store.
    ///   - refuses: whether a file imported before, or given twice, is refused, and a list that
    ///     cannot be read (not with `--again`, which starts a new list then).
    init(sources: [String], entity: String, store: String?, refuses: Bool) throws(ImportError) {
        var listed = ImportedFiles.none
        if let store {
            let metadata: [String: PropertyListValue]
            do { metadata = try CoreDataStoreReader(path: store).metadata.propertyList } catch {
                throw .store(.existingStore(path: store, reason: ErrorText.reason(of: error, at: store)))
            }
            do { listed = try ImportedFiles(metadata: metadata) } catch {
                if refuses { throw .importedFilesUnreadable(store: store, reason: error.description) }
            }
        }
        self.listed = listed
        self.entity = entity
        self.store = store
        self.refuses = refuses
        let files = sources.filter { Self.digestible($0) }
        let sizes = files.map { FileInfo.size(atPath: FileInfo.linkTarget(of: $0)) ?? -1 }
        var early: [String: Digest] = [:]
        if refuses {
            for (index, file) in files.enumerated() {
                let size = sizes[index]
                guard listed.holds(bytes: size) || sizes.filter({ $0 == size }).count > 1 else { continue }
                guard let digest = Self.digest(file) else { continue }
                if let entry = listed.entry(sha256: digest.sha256, bytes: digest.bytes, entity: entity) {
                    throw .importedBefore(source: file, store: store ?? "", name: entry.name, at: entry.importedAt, written: entry.written)
                }
                if let twin = early.first(where: { $0.value == digest })?.key {
                    throw .givenTwice(source: file, sameAs: twin)
                }
                early[file] = digest
            }
        }
        self.early = early
        rest = Self.startDigests(of: files.filter { early[$0] == nil })
    }

    /// Refuses the stream `source`, read whole with `digest`, when the store lists its bytes as
    /// this entity's or another source of the import (`streamsBefore`, and the files) holds them.
    func check(stream source: String, digest: Digest, streamsBefore: [String: Digest]) throws(ImportError) {
        guard refuses else { return }
        if let entry = listed.entry(sha256: digest.sha256, bytes: digest.bytes, entity: entity) {
            throw .importedBefore(source: FileByteSource.name(of: source), store: store ?? "", name: entry.name, at: entry.importedAt,
                                  written: entry.written)
        }
        let sources = early.merging(rest.wait()) { first, _ in first }.merging(streamsBefore) { first, _ in first }
        if let twin = sources.first(where: { $0.value == digest })?.key {
            throw .givenTwice(source: FileByteSource.name(of: source), sameAs: FileByteSource.name(of: twin))
        }
    }

    /// The list the store keeps after the import: the one before, with the files `ledgers` read
    /// (`streams`: the digests of the streams among them).
    func list(after ledgers: [SourceLedger], streams: [String: Digest]) -> ImportedFiles {
        listed.adding(read: ledgers, digests: early.merging(rest.wait()) { first, _ in first }.merging(streams) { first, _ in first })
    }

    /// Digests `files` (those of them that are regular files) on a worker thread.
    static func startDigests(of files: [String]) -> BackgroundWork<[String: Digest], Never> {
        let digestible = files.filter(digestible)
        return BackgroundWork { .success(Dictionary(digestible.compactMap { file in digest(file).map { (file, $0) } }) { first, _ in first }) }
    }

    /// A file, or a link to one, that can be read a second time: a regular file.
    static func digestible(_ path: String) -> Bool {
        path != "-" && FileInfo.kind(atPath: FileInfo.linkTarget(of: path)) == .regularFile
    }

    private static func digest(_ path: String) -> Digest? {
        (try? FileDigest.sha256(of: FileInfo.linkTarget(of: path), regularFileOnly: true)).map { ($0.digest, $0.size) }
    }
}
