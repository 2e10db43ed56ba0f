import FerryFormats
import FoundationEssentials

/// Reads and writes `manifest.json` (pretty-printed, keys sorted).
enum ManifestFile {
    static func write(_ manifest: ExportManifest, to path: String, durable: Bool) throws(ExportError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(manifest) } catch { throw .encoding(reason: "manifest: \(error)") }
        do {
            let file = try FileByteSink(path: path, exclusive: true)
            try file.write([UInt8](data) + [0x0A])
            try file.close(sync: durable)
        } catch {
            throw .writing(path, error)
        }
    }

    static func read(from path: String) throws(ExportError) -> ExportManifest {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .notAnExport(path: path, reason: "the manifest is missing or unreadable")
        }
        do { return try JSONDecoder().decode(ExportManifest.self, from: data) } catch {
            throw .notAnExport(path: path, reason: "the manifest is not valid: \(reason(error))")
        }
    }

    /// What a decoding error says of the manifest, in its own words: which key, where.
    private static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case let .keyNotFound(key, context):
            return "the key \(key.stringValue) is missing" + (context.codingPath.isEmpty ? "" : " in \(path(context))")
        case let .typeMismatch(type, context):
            return context.codingPath.isEmpty ? "it is not a JSON object of a manifest's keys" : "the value of \(path(context)) is not \(jsonKind(type))"
        case let .valueNotFound(type, context):
            return "the value of \(path(context)) is null, where \(jsonKind(type)) belongs"
        case let .dataCorrupted(context):
            return context.codingPath.isEmpty ? "it is not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    /// What a JSON value of a Swift type is, as a reader of the file sees it: "a number", "text".
    private static func jsonKind(_ type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "a whole number"
        case is any BinaryFloatingPoint.Type: "a number"
        case is String.Type: "text (a JSON string)"
        case is Bool.Type: "true or false"
        case is [Any].Type: "a list"
        default: "a JSON object"
        }
    }
}
