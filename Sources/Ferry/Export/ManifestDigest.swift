import FerryFormats
import FerryModel

/// The digest a manifest carries of its own content (`ExportManifest.manifestSHA256`): SHA-256 of
/// the canonical text (`JSONValue.canonicalText`) of the manifest without that one member. The
/// files of a folder are checked against their digests in the manifest; this checks the manifest
/// itself, whose store UUID, `Z_MAX` values and application metadata a restore writes back as it
/// says them (one character changed restored another store, exit 0).
enum ManifestDigest {
    /// The member of a manifest that holds its digest.
    static let key = "manifestSHA256"

    /// The digest (lowercase hex) of `manifest`, a manifest's JSON, leaving out its own digest.
    static func of(_ manifest: JSONValue) -> String {
        var content = manifest
        if case .object(let members) = manifest { content = .object(members.filter { $0.key != key }) }
        var digest = SHA256()
        digest.update(content.canonicalText)
        return Hex.string(digest.finalize())
    }

    /// Checks the digest that `manifest`, decoded from `text` (the file at `path`), carries.
    /// A manifest of an earlier Ferry (`ExportManifest.firstDigestedFormatVersion`) carries none,
    /// and is taken unchecked (`ExportManifest.notChecked`).
    /// - Throws: a verification failure of `path` when the digest is not its content's, or when
    ///   a manifest of a format that carries one has none.
    static func check(_ manifest: ExportManifest, text: JSONValue, path: String) throws(ExportError) {
        guard let recorded = manifest.manifestSHA256 else {
            guard manifest.formatVersion < ExportManifest.firstDigestedFormatVersion else {
                throw .verification(path: path, reason: "altered: it carries no \(key), which every manifest of format "
                    + "\(ExportManifest.firstDigestedFormatVersion) and up carries (its formatVersion is \(manifest.formatVersion))")
            }
            return
        }
        let computed = of(text)
        guard computed == recorded else {
            throw .verification(path: path, reason: "altered: the SHA-256 of its content is \(computed), its \(key) says \(recorded) "
                + "(a restore would write back what it says of the store: its UUID, Z_MAX values and metadata)")
        }
    }
}
