import FerryFormats
import FerryMigration
import FerryModel
import FoundationEssentials

/// The files imported into a store, kept in its metadata under `metadataKey` (one JSON text, as
/// the migration receipt is): each file's SHA-256 and size, its name, the entity and model
/// version it was read as, when, and the records written from it. An `import --append` of a file
/// whose bytes are listed, or a file given twice, is refused (`ImportJob`): its records would be
/// in the store twice. The newest `limit` entries are kept.
struct ImportedFiles: Codable, Equatable {
    static let metadataKey = "FerryImportedFiles"
    /// Most entries kept; older ones are dropped first.
    static let limit = 1_000
    /// A file's SHA-256 (lowercase hex) and size.
    typealias Digest = (sha256: String, bytes: Int)

    struct File: Codable, Equatable {
        /// The name it was given by (its path as given).
        var name: String
        var sha256: String
        var bytes: Int
        var entity: String
        var modelVersion: String
        /// When it was imported (ISO 8601, UTC).
        var importedAt: String
        /// Records written from it.
        var written: Int
    }

    private(set) var files: [File] = []

    /// Why a store's metadata holds something under `metadataKey` that is no such list.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// The list a store's metadata keeps: empty when it keeps none.
    /// - Throws: `Unreadable` when the key holds something else (an edited or damaged list).
    init(metadata: [String: PropertyListValue]) throws(Unreadable) {
        guard let value = metadata[Self.metadataKey] else { return }
        guard case .string(let text) = value else { throw Unreadable(description: "\(Self.metadataKey) is not text") }
        do { self = try JSONDecoder().decode(ImportedFiles.self, from: Data(text.utf8)) } catch {
            throw Unreadable(description: "\(Self.metadataKey) is not a list of imported files: \(error)")
        }
    }

    private init() {}

    /// A list of no files.
    static let none = ImportedFiles()

    /// The entry of the file of `entity` whose bytes are `digest` and `size`, the newest when
    /// several are.
    func entry(sha256 digest: String, bytes size: Int, entity: String) -> File? {
        files.last { $0.sha256.lowercased() == digest && $0.bytes == size && $0.entity == entity }
    }

    /// Whether some entry's file has `size` bytes: only such a file can be one imported before.
    func holds(bytes size: Int) -> Bool {
        files.contains { $0.bytes == size }
    }

    /// The list with the files a run read added: each source of `ledgers` that `digests` has (a
    /// regular file), as the entity and version of its first ledger (the records it names),
    /// with the records written from it; the newest `limit` entries kept.
    func adding(read ledgers: [SourceLedger], digests: [String: Digest]) -> ImportedFiles {
        let now = ISO8601Date.format(Date().timeIntervalSinceReferenceDate.rounded(.down)) ?? ""
        var seen = Set<String>()
        let read = ledgers.filter { seen.insert($0.source).inserted }.compactMap { first -> File? in
            guard let digest = digests[first.source] else { return nil }
            let written = ledgers.filter { $0.source == first.source }.reduce(0) { $0 + $1.written }
            return File(name: FileByteSource.name(of: first.source), sha256: digest.sha256, bytes: digest.bytes, entity: first.entity, modelVersion: first.version,
                        importedAt: now, written: written)
        }
        return adding(read)
    }

    /// The list with each entry changed by `change` (a migration names each file's entity and
    /// version as its records became).
    func map(_ change: (inout File) -> Void) -> ImportedFiles {
        var changed = self
        for index in changed.files.indices { change(&changed.files[index]) }
        return changed
    }

    /// The list with `new` added, the newest `limit` entries kept.
    func adding(_ new: [File]) -> ImportedFiles {
        var added = self
        added.files = Array((files + new).suffix(Self.limit))
        return added
    }

    /// The list as the metadata keeps it.
    func metadataValue() throws -> PropertyListValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return .string(String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}
