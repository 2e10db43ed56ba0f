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
            throw .notAnExport(path: path, reason: "the manifest is not valid: \(error)")
        }
    }
}
