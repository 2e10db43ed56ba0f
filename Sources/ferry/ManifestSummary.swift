import Ferry
import FoundationEssentials

/// The one-line JSON summary `--json` prints for an export or backup.
enum ManifestSummary {
    private struct Line: Encodable {
        let folder: String
        let records: Int
        let files: Int
        let bytes: Int
        let storeUUID: String
        let createdAt: String
        let removed: [String]?
    }

    static func jsonLine(_ manifest: ExportManifest, folder: String, removed: [String]? = nil) -> String {
        let line = Line(folder: folder, records: manifest.entities.reduce(0) { $0 + $1.count }, files: manifest.entities.count,
                        bytes: manifest.entities.reduce(0) { $0 + $1.bytes }, storeUUID: manifest.storeUUID,
                        createdAt: manifest.createdAt, removed: removed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(line) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// The one-line JSON a failed run prints with `--json`: `{"error": {"code": N, "message": "…"}}`.
enum FailureSummary {
    private struct Line: Encodable {
        struct Failure: Encodable {
            let code: Int32
            let message: String
        }
        let error: Failure
    }

    static func jsonLine(code: ExitCode, message: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Line(error: Line.Failure(code: code.rawValue, message: message))) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
