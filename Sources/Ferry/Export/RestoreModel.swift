import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FoundationEssentials

/// The model version a restore writes with: the version of a bundle whose version hashes are
/// those recorded when the records were taken (an export's manifest, a PostgreSQL catalog row).
enum RestoreModel {
    /// The version of the bundle at `bundlePath` with `hashes`.
    /// - Parameters:
    ///   - hashes: base64 version hashes by entity, as recorded.
    ///   - recordedVersion: the version name recorded with them, for the message when none matches.
    static func version(in bundlePath: String, hashes: [String: String], recordedVersion: String) throws(ExportError) -> ManagedObjectModel {
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: bundlePath) } catch { throw .model(reason: error.description) }
        return try version(among: bundle.versions, from: bundlePath, hashes: hashes, recordedVersion: recordedVersion)
    }

    /// The one of `versions` (from `origin`, for messages) with `hashes`.
    static func version(among versions: [ManagedObjectModel], from origin: String, hashes: [String: String],
                        recordedVersion: String) throws(ExportError) -> ManagedObjectModel {
        let wanted = hashes.compactMapValues { PropertyListBase64.decode($0.utf8, padding: .required) }
        switch StoreVersionMatch.match(wanted, in: versions) {
        case .success(let match): return match.model
        case .failure(let mismatch):
            throw .model(reason: "no version of \(origin) has the version hashes of the backup (\(recordedVersion)); "
                + "closest: \(mismatch.closest?.name ?? "none"), differing in \(mismatch.differing.joined(separator: ", "))")
        }
    }

    /// The record pipeline of a restore into `writer`: a chain of one version, records written as
    /// read, each keeping its key (each side of a one-to-one is written from its own column only,
    /// as the cursors keep them: `RecordCursor.keepsOneToOneSides`).
    static func pipeline(writer: CoreDataStoreWriter, model: ManagedObjectModel,
                         progress: @escaping (JobProgress) -> Void) -> RecordPipeline {
        let chain = MigrationChain(versions: [model], steps: [], options: CoercionOptions(), variables: [:])
        var pipeline = RecordPipeline(chain: chain, graph: StoreGraphWriter(writer: writer, model: model), rejects: RejectCollector(limit: nil))
        pipeline.keepsSourceKeys = true
        pipeline.onProgress = progress
        return pipeline
    }

    /// Writes back what was kept of the original store besides its records (by a backup's
    /// manifest or a PostgreSQL catalog row): each root entity's `Z_MAX` (by the entity's name,
    /// or its renaming identifier as the store may still name it) where it is above the restored
    /// keys, so a new object never takes a deleted one's key and URI, and the application's own
    /// metadata keys (`StoreMetadataInfo.applicationEntries`).
    static func keepState(primaryKeyMaxima: [String: Int64], applicationMetadata: [String: PropertyListValue], model: ManagedObjectModel,
                          writer: CoreDataStoreWriter, outputPath: String) throws(ExportError) {
        do throws(StoreWriterError) {
            for root in model.entities where root.parentName == nil {
                let names = [root.name] + (root.renamingIdentifier.map { [$0] } ?? [])
                guard let maximum = names.compactMap({ primaryKeyMaxima[$0] }).max() else { continue }
                try writer.keepPrimaryKeys(through: maximum, root: root.name)
            }
            if !applicationMetadata.isEmpty { try writer.setMetadataEntries(applicationMetadata) }
        } catch {
            throw WriteFailure.of(error).map(ExportError.noRoom) ?? .restore(reason: "\(outputPath): \(error)")
        }
    }

    /// The names of recorded `Z_MAX` values (`primaryKeyMaxima`) that are neither an entity of
    /// `model` (by its name or renaming identifier) nor one of Core Data's own, sorted: `keepState`
    /// would pass them over, and a new object could take a deleted one's key (a name damaged in
    /// the manifest restored `Z_MAX` 31 for 1031).
    static func foreignNames(in primaryKeyMaxima: [String: Int64], model: ManagedObjectModel) -> [String] {
        let entities = Set(model.entities.flatMap { [$0.name] + ($0.renamingIdentifier.map { [$0] } ?? []) })
        return primaryKeyMaxima.keys.filter { !entities.contains($0) && !PrimaryKeyEntry.isSystemEntityName($0) }.sorted()
    }

    /// A new store at `path` (built beside it until `finish()`) for records of `model`, with the
    /// original store's UUID.
    static func writer(at path: String, model: ManagedObjectModel, storeUUID: StoreUUID) throws(ExportError) -> CoreDataStoreWriter {
        let hashes = VersionHasher.hashes(of: model)
        do throws(StoreWriterError) {
            let writer = try CoreDataStoreWriter.create(
                at: path, model: model, versionHashes: hashes.entityHashes, versionIdentifiers: model.versionIdentifiers,
                storeUUID: storeUUID, hashesDigest: hashes.digest, checksum: hashes.checksum)
            // A restore is a copy: derived values stay as backed up (the store still gets the triggers).
            writer.derivedValues = .asWritten
            return writer
        } catch {
            throw .writing(path, error)
        }
    }
}
