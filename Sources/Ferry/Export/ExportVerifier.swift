import FerryFormats
import FerryModel
import FoundationEssentials

/// Checks an export or backup folder against its manifest: every listed file is there with its
/// SHA-256 and size, and, when asked, holds as many records as the manifest says.
public enum ExportVerifier {
    /// Returns the manifest when everything matches.
    /// - Throws: `ExportError.verification` naming the first missing or altered file.
    @discardableResult
    public static func verify(folder: String, countRecords: Bool) throws(ExportError) -> ExportManifest {
        let manifest = try ManifestFile.read(from: folder + "/" + ExportManifest.fileName)
        for entry in manifest.entities {
            let path = folder + "/" + entry.file
            guard FileManager.default.fileExists(atPath: path) else {
                throw .verification(path: path, reason: "missing (the manifest lists it with \(entry.count) records)")
            }
            let (digest, size) = try sha256(of: path)
            guard digest == entry.sha256, size == entry.bytes else {
                throw .verification(path: path, reason: "altered: SHA-256 \(digest) (\(size) bytes), the manifest says \(entry.sha256) (\(entry.bytes) bytes)")
            }
            guard countRecords else { continue }
            let reader = try ExportFileReader(path: path, format: manifest.format)
            var count = 0
            while try reader.nextRecord() != nil { count += 1 }
            guard count == entry.count else {
                throw .verification(path: path, reason: "holds \(count) records, the manifest says \(entry.count)")
            }
        }
        return manifest
    }

    /// SHA-256 (lowercase hex) and size of a file, streamed.
    static func sha256(of path: String) throws(ExportError) -> (String, Int) {
        do { return try FileDigest.sha256(of: path) } catch {
            throw .verification(path: path, reason: "unreadable: \(error)")
        }
    }
}
