import FerryFormats
import FerryStore
import FoundationEssentials

/// The files of one import against the store's list of files imported before (`ImportedFiles`):
/// refuses a file whose bytes the store appended to lists, or a file given twice, and keeps the
/// digests of the bytes read for the list the new store keeps.
///
/// Each source is digested as the import reads it (`ReadDigestTap`) and checked once read,
/// before anything is written: the list holds the bytes the records came from, not a second
/// reading of a file another process may have changed in between. A regular file whose size is
/// one the list or another file has is also digested before the import, so that a file imported
/// before is refused before any record is read.
struct ImportedFileCheck {
    typealias Digest = ImportedFiles.Digest

    let listed: ImportedFiles
    private let entity: String
    private let store: String?
    private let refuses: Bool

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
    }

    /// Refuses the source `source`, read whole as `digest`, when the store lists its bytes as
    /// this entity's or a source the import read before (`before`: their digests) holds them.
    func check(read source: String, digest: Digest, before: [String: Digest]) throws(ImportError) {
        guard refuses else { return }
        if let entry = listed.entry(sha256: digest.sha256, bytes: digest.bytes, entity: entity) {
            throw .importedBefore(source: FileByteSource.name(of: source), store: store ?? "", name: entry.name, at: entry.importedAt,
                                  written: entry.written)
        }
        if let twin = before.first(where: { $0.value == digest })?.key {
            throw .givenTwice(source: FileByteSource.name(of: source), sameAs: FileByteSource.name(of: twin))
        }
    }

    /// The list the store keeps after the import: the one before, with the sources `ledgers`
    /// read, as `read` holds the digests of their bytes.
    func list(after ledgers: [SourceLedger], read: [String: Digest]) -> ImportedFiles {
        listed.adding(read: ledgers, digests: read)
    }

    /// A file, or a link to one, that can be read a second time: a regular file.
    private static func digestible(_ path: String) -> Bool {
        path != "-" && FileInfo.kind(atPath: FileInfo.linkTarget(of: path)) == .regularFile
    }

    private static func digest(_ path: String) -> Digest? {
        (try? FileDigest.sha256(of: FileInfo.linkTarget(of: path), regularFileOnly: true)).map { ($0.digest, $0.size) }
    }
}
