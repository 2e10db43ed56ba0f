import FerryFormats
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

    /// The list a store's metadata keeps: empty when it keeps none, or something under the key
    /// that is not such a list (it is then replaced by the one this import writes).
    init(metadata: [String: PropertyListValue]) {
        guard case .string(let text)? = metadata[Self.metadataKey],
              let decoded = try? JSONDecoder().decode(ImportedFiles.self, from: Data(text.utf8)) else { return }
        self = decoded
    }

    /// The entry of the file whose bytes are `digest` and `size`, the newest when several are.
    func entry(sha256 digest: String, bytes size: Int) -> File? {
        files.last { $0.sha256 == digest && $0.bytes == size }
    }

    /// Whether some entry's file has `size` bytes: only such a file can be one imported before.
    func holds(bytes size: Int) -> Bool {
        files.contains { $0.bytes == size }
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
