import FerryModel
import FerryStore

/// A restore keeps outside their rows the values the store it restores kept outside (named by
/// the backup's manifest, `ExportManifest.EntityFile.externalData`, or by PostgreSQL's catalog),
/// in files of the same names (`CoreDataStoreWriter.keepOutside`), so the restored store is laid
/// out as it was; the values a manifest or catalog row of an older Ferry does not name stay in
/// their rows, as they always did.
enum RestoreExternalData {
    /// The values of one concrete entity's records to keep outside, by attribute and `Z_PK`.
    typealias EntityNames = (entity: String, names: ExternalValueNames)

    /// Moves the values each file of `manifest` names out of their rows in the store `writer`
    /// builds at `outputPath`.
    /// - Throws: `ExportError.notAnExport` for names a manifest cannot hold, and as `keep(_:in:source:outputPath:)`.
    static func keep(in writer: CoreDataStoreWriter, manifest: ExportManifest, model: ManagedObjectModel, folder: String,
                     outputPath: String) throws(ExportError) {
        let manifestPath = folder + "/" + ExportManifest.fileName
        var named: [EntityNames] = []
        for entry in manifest.entities where entry.externalData != nil {
            named.append((entry.entity, try manifest.externalValueNames(of: entry, model: model, manifestPath: manifestPath)))
        }
        try keep(named, in: writer, source: manifestPath, outputPath: outputPath)
    }

    /// Moves the values `named` out of their rows in the store `writer` builds at `outputPath`;
    /// `source` is what named them (a manifest, a catalog row), for messages. A value of a record
    /// not restored (rejected) needs no file; values of several records may name one file, as
    /// rows of the store restored may share one.
    /// - Throws: `ExportError.verification` for a value named that its record does not hold in its
    ///   row, or whose file another value of other bytes names; the writer's failures as a restore's.
    static func keep(_ named: [EntityNames], in writer: CoreDataStoreWriter, source: String, outputPath: String) throws(ExportError) {
        for (entity, names) in named {
            let unkept: [UnkeptExternalValue]
            do { unkept = try writer.keepOutside(names, of: entity) } catch {
                throw WriteFailure.of(error).map(ExportError.noRoom) ?? .restore(reason: "\(outputPath): \(error)")
            }
            if let first = unkept.first {
                throw .verification(path: source, reason: "externalData of \(entity) names \(unkept.count) "
                    + "value(s) its records cannot keep outside as named, first \(first)")
            }
        }
    }
}
