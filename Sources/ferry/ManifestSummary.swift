import Ferry
import FoundationEssentials

/// The one-line JSON summary `--json` prints for an export or backup.
enum ManifestSummary {
    static func jsonLine(_ manifest: ExportManifest, folder: String, extra: [String: String] = [:]) -> String {
        var fields: [String: String] = extra
        fields["folder"] = folder
        fields["records"] = String(manifest.entities.reduce(0) { $0 + $1.count })
        fields["files"] = String(manifest.entities.count)
        fields["bytes"] = String(manifest.entities.reduce(0) { $0 + $1.bytes })
        fields["storeUUID"] = manifest.storeUUID
        fields["createdAt"] = manifest.createdAt
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(fields) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
