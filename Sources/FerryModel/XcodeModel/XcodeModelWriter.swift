import FerryFormats

/// Writes models as Xcode model files: a version's `contents` XML as Xcode spells it
/// (`ModelXMLElements`, `PropertyXMLElements`), and `.xcdatamodeld` bundles with their
/// `.xccurrentversion`. `XcodeModelLoader` reads the files back as an equal model (its properties
/// in the order Xcode writes them), with equal version hashes.
///
/// A model holds a few things the XML has no spelling for; they are left out and listed by
/// `unwrittenParts(of:)`, so callers can say so:
/// - validation rules (predicate and warning) of attributes and relationships, which models built
///   in code have, but for a number's bounds (`SELF >= 0` warning 1620 in Apple's stores), which
///   are written as `minValueString`/`maxValueString`;
/// - a derived attribute's filtering predicate (hashed), and whether a derived attribute is
///   read-only (not hashed: the XML makes every derived attribute read-only);
/// - a read-only flag on any other attribute (hashed);
/// - a to-one relationship whose `maxCount` is not 1 (hashed);
/// - a model-level fetch request without an entity.
///
/// What only an archive knows is not part of the XML either, nor listed: whether a store's model
/// cache lists inherited properties as copies or proxies (`inheritedPropertyForm`), and whatever
/// the decoder already left out of the model (fetch requests' sort descriptors and limits,
/// default values of app classes).
public enum XcodeModelWriter {
    /// The `contents` file of one model version.
    /// - Throws: `.unencodable` when a name or value holds a character XML cannot hold.
    public static func contents(of model: ManagedObjectModel) throws(ModelWriteError) -> [UInt8] {
        do { return try XMLDocumentWriter.document(ModelXMLElements.model(model)) } catch { throw .unencodable(error) }
    }

    /// What of `model` the XML cannot hold, entities and properties in the written order.
    public static func unwrittenParts(of model: ManagedObjectModel) -> [UnwrittenModelPart] {
        UnwrittenModelParts.of(model)
    }

    /// Writes `bundle` as an `.xcdatamodeld` folder at `path`: `<version>.xcdatamodel/contents` for
    /// every version and `.xccurrentversion` naming the current one. `path`'s parent must exist and
    /// `path` must not; on failure, what was written is left for the caller to remove.
    /// - Throws: `.invalidName`, `.unknownCurrentVersion` before anything is written; `.unencodable`,
    ///   `.cannotWrite`.
    public static func writeBundle(_ bundle: ModelBundle, to path: String) throws(ModelWriteError) {
        for version in bundle.versions { try checkFileName(version.name) }
        guard bundle.current != nil else { throw .unknownCurrentVersion(bundle.currentVersionName) }
        try ModelFiles.createDirectory(path)
        for version in bundle.versions {
            let folder = ModelFiles.join(path, version.name + ".xcdatamodel")
            try ModelFiles.createDirectory(folder)
            try ModelFiles.write(contents(of: version), to: ModelFiles.join(folder, "contents"))
        }
        try ModelFiles.write(CurrentVersionFile.contents(versionName: bundle.currentVersionName),
                             to: ModelFiles.join(path, CurrentVersionFile.fileName))
    }

    /// What `writeBundle(bundle, to: path)` creates: the bundle and version folders (each before
    /// the folders inside it) and the files, for a caller that must be able to remove them.
    public static func bundleEntries(_ bundle: ModelBundle, at path: String) -> (folders: [String], files: [String]) {
        let versions = bundle.versions.map { ModelFiles.join(path, $0.name + ".xcdatamodel") }
        return ([path] + versions, versions.map { ModelFiles.join($0, "contents") } + [ModelFiles.join(path, CurrentVersionFile.fileName)])
    }

    /// Refuses a name that cannot name a version folder: empty, `.`, `..`, or holding `/` or NUL.
    public static func checkFileName(_ name: String) throws(ModelWriteError) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else { throw .invalidName(name) }
    }
}
