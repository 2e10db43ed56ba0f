import FerryFormats
import FoundationEssentials

/// Reads and writes `manifest.json` (pretty-printed, keys sorted), with the digest of its own
/// content (`ManifestDigest`). A manifest is read strictly: a key no manifest has, or one given
/// twice, is refused rather than passed over, and so is a digest that is not its content's.
enum ManifestFile {
    /// Writes `manifest` with the digest of its content; returns it as written.
    @discardableResult
    static func write(_ manifest: ExportManifest, to path: String, durable: Bool) throws(ExportError) -> ExportManifest {
        var written = manifest
        written.manifestSHA256 = nil
        written.manifestSHA256 = ManifestDigest.of(try json(of: written))
        let bytes = try encoded(written)
        do {
            let file = try FileByteSink(path: path, exclusive: true)
            try file.write(bytes + [0x0A])
            try file.close(sync: durable)
        } catch {
            throw .writing(path, error)
        }
        return written
    }

    /// The manifest of the export or backup folder at `folder`, read as its own regular file
    /// (`BackupFolderFile`); `strictly`, checked itself: its keys, and its content against its
    /// digest. Only what tells a folder's files as an export's (which a later ferry's manifest, or
    /// a damaged one, still does) reads it otherwise.
    /// - Throws: `ExportError.notAnExport` for a file that is no manifest (missing, unreadable,
    ///   not valid JSON, a key missing or of another type; strictly, a key unknown or given twice),
    ///   `ExportError.notABackupFile` for a manifest that is a symbolic link, FIFO or device,
    ///   `ExportError.verification` (strictly) for one whose content is not what its digest says.
    static func read(inFolder folder: String, strictly: Bool = true) throws(ExportError) -> ExportManifest {
        let path = FilePath.withoutTrailingSlashes(folder) + "/" + ExportManifest.fileName
        let bytes: [UInt8]?
        do { bytes = try BackupFolderFile.contents(of: ExportManifest.fileName, in: folder) } catch .verification {
            bytes = nil
        }
        guard let bytes else { throw .notAnExport(path: path, reason: "the manifest is missing or unreadable") }
        let manifest: ExportManifest
        do { manifest = try JSONDecoder().decode(ExportManifest.self, from: Data(bytes)) } catch {
            throw .notAnExport(path: path, reason: "the manifest is not valid: \(reason(error))")
        }
        guard strictly else { return manifest }
        let text: JSONValue
        do { text = try JSONValue(parsing: bytes) } catch {
            throw .notAnExport(path: path, reason: "the manifest is not valid: it is not valid JSON (\((error as? JSONError)?.reason ?? "\(error)"))")
        }
        if let problem = ManifestKeys.problem(in: text, kept: try json(of: manifest)) {
            throw .notAnExport(path: path, reason: "the manifest is not valid: \(problem)")
        }
        try ManifestDigest.check(manifest, text: text, path: path)
        // Checked here, where the manifest's path is known (its later reads name only its name).
        if let metadata = manifest.applicationMetadata, ExportManifest.applicationMetadataEntries(of: metadata) == nil {
            throw .notAnExport(path: path, reason: "applicationMetadata is not a base64 property list dictionary")
        }
        return manifest
    }

    /// `manifest` as written, without the final line feed.
    private static func encoded(_ manifest: ExportManifest) throws(ExportError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { return [UInt8](try encoder.encode(manifest)) } catch { throw .encoding(reason: "manifest: \(error)") }
    }

    /// `manifest` as JSON, as written.
    private static func json(of manifest: ExportManifest) throws(ExportError) -> JSONValue {
        let bytes = try encoded(manifest)
        do { return try JSONValue(parsing: bytes) } catch { throw .encoding(reason: "manifest: \(error)") }
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
