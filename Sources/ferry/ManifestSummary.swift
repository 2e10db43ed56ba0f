import Ferry
import FoundationEssentials

/// The one-line JSON summary `--json` prints for an export or backup: the folder, the totals, and
/// per entity its records, bytes and file; for a backup also the seconds each phase took, the
/// old backups removed and those that could not be (`notRemoved`, each with why).
enum ManifestSummary {
    private struct Line: Encodable {
        let folder: String
        let records: Int
        let files: Int
        let bytes: Int
        let storeUUID: String
        let createdAt: String
        let entities: [String: Entity]
        let seconds: Seconds?
        let removed: [String]?
        let notRemoved: [String]?
    }

    private struct Entity: Encodable {
        let records: Int
        let bytes: Int
        let file: String
        /// Seconds spent writing the entity's file.
        let seconds: Double?
    }

    /// How long a run took: in all, and in each phase (`exporting Task`, `verifying the backup`…).
    struct Seconds: Encodable {
        let total: Double
        let phases: [String: Double]
    }

    /// The totals of a manifest: records, bytes and files.
    static func counts(_ manifest: ExportManifest) -> [String: Int] {
        ["records": manifest.entities.reduce(0) { $0 + $1.count }, "bytes": manifest.entities.reduce(0) { $0 + $1.bytes },
         "files": manifest.entities.count]
    }

    static func jsonLine(_ manifest: ExportManifest, folder: String, seconds: Seconds? = nil, removed: [String]? = nil,
                         notRemoved: [String]? = nil) -> String {
        let counts = counts(manifest)
        var entities: [String: Entity] = [:]
        for file in manifest.entities {
            entities[file.entity] = Entity(records: file.count, bytes: file.bytes, file: file.file, seconds: seconds?.phases["exporting \(file.entity)"])
        }
        let line = Line(folder: folder, records: counts["records"] ?? 0, files: counts["files"] ?? 0, bytes: counts["bytes"] ?? 0,
                        storeUUID: manifest.storeUUID.text, createdAt: manifest.createdAt, entities: entities, seconds: seconds, removed: removed,
                        notRemoved: notRemoved?.isEmpty == false ? notRemoved : nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(line) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
