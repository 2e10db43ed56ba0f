import FerryModel
import FerryStore

/// A restore keeps outside their rows the values the backed-up store kept outside
/// (`ExportManifest.EntityFile.externalData`), in files of the same names
/// (`CoreDataStoreWriter.keepOutside`), so the restored store is laid out as it was; the values
/// a manifest of an older Ferry does not name stay in their rows, as they always did.
enum RestoreExternalData {
    /// Moves the values each file's `externalData` names out of their rows in the store `writer`
    /// builds at `outputPath`.
    /// - Throws: `ExportError.notAnExport` for names a manifest cannot hold (one file named for two
    ///   values included: Core Data gives each value its own), `.verification` for
    ///   a value named that its record does not hold (no record of that key, or none of that
    ///   attribute), the writer's failures as a restore's.
    static func keep(in writer: CoreDataStoreWriter, manifest: ExportManifest, model: ManagedObjectModel, folder: String,
                     outputPath: String) throws(ExportError) {
        var files: Set<String> = []
        for entry in manifest.entities where entry.externalData != nil {
            let names = try manifest.externalValueNames(of: entry, model: model)
            for file in names.values.flatMap(\.values) where !files.insert(file).inserted {
                throw .notAnExport(path: folder + "/" + ExportManifest.fileName, reason: "externalData names the file \(file) for two values")
            }
            let missing: [(attribute: String, primaryKey: Int64)]
            do { missing = try writer.keepOutside(names, of: entry.entity) } catch {
                throw WriteFailure.of(error).map(ExportError.noRoom) ?? .restore(reason: "\(outputPath): \(error)")
            }
            if let first = missing.first {
                throw .verification(path: folder + "/" + ExportManifest.fileName, reason: "externalData of \(entry.file) names \(missing.count) "
                    + "value(s) its records do not hold, first \(first.attribute) of Z_PK \(first.primaryKey)")
            }
        }
    }
}
