import FerryFormats
/// What `ferry export` is asked to do.
public struct ExportRequest: Sendable {
    /// The Core Data store to read.
    public var storePath: String
    /// The folder to write the files and `manifest.json` into (created when missing).
    public var outputFolder: String
    public var format: ExportFormat
    /// Gzip level 0–9 for `.gz` files; nil writes plain files.
    public var gzipLevel: Int?
    /// Entities to export, each with its sub-entities; empty exports every entity.
    public var entities: [String]
    /// An `NSPredicate` format selecting the records (needs exactly one entity).
    public var predicate: String?
    /// Sort keys (`name,-date`) ordering the records in their files (needs exactly one entity).
    public var sort: String?
    /// A model bundle whose matching version reads the store; nil uses the store's `Z_MODELCACHE`.
    public var modelPath: String?
    /// Sync every file to disk before the manifest is written (backups do; plain exports need not).
    public var durable = false
    /// A fresh folder the caller created and owns (a backup's), written in place; nil: the
    /// files are built aside `outputFolder` and renamed into it (`ExportPlacement`).
    var ownedFolder: OwnedTemporary?
    /// A consistent copy of the store to read in its place (a backup's, of a store another
    /// process writes meanwhile); the manifest and messages still name `storePath`, and the
    /// manifest describes its files (`CommittedStoreCopy.sourceFiles`).
    var copyToRead: CommittedStoreCopy?
    /// Whether a whole export puts the store's fingerprints in its manifest (`--no-fingerprints`
    /// turns it off: an export for other tools, which restore checks by its counts only).
    public var fingerprints = true
    /// Whether the manifest must carry the store's fingerprints (a backup's): a store written
    /// while it is exported is then `.changedWhileReading` rather than exported without them.
    var requiresFingerprints = false

    public init(storePath: String, outputFolder: String, format: ExportFormat = .ndjson, gzipLevel: Int? = nil,
                entities: [String] = [], predicate: String? = nil, sort: String? = nil, modelPath: String? = nil) {
        self.storePath = storePath
        self.outputFolder = outputFolder
        self.format = format
        self.gzipLevel = gzipLevel
        self.entities = entities
        self.predicate = predicate
        self.sort = sort
        self.modelPath = modelPath
    }

    /// Why the selection cannot be made: `--where` and `--sort` need exactly one entity.
    public var selectionProblem: String? {
        (predicate != nil || sort != nil) && entities.count != 1 ? "--where and --sort apply to one entity: give exactly one --entity" : nil
    }

    /// The file name of an entity's records.
    public func fileName(for entity: String) -> String {
        format.fileName(for: entity, gzip: gzipLevel != nil)
    }

    /// Refuses an export of `entities` two of whose files would have one name, or one the
    /// manifest's (`manifest.json`: an entity `manifest` in plain JSON), compared without letter
    /// case: a Mac's disk keeps one file for both, and a backup is read wherever it is copied.
    /// Checked before anything is written.
    func refuseClashingFileNames(of entities: [String]) throws(ExportError) {
        var taken = [ExportManifest.fileName.lowercased(): "the manifest"]
        for entity in entities {
            let name = fileName(for: entity)
            guard let holder = taken[name.lowercased()] else {
                taken[name.lowercased()] = "entity \(entity)"
                continue
            }
            throw .invalidRequest("entity \(entity) would be written to \(name), the file of \(holder) (file names are compared without "
                + "letter case, as a Mac's disk does): write the files in another format (--format) or gzipped; nothing was written")
        }
    }
}
