import FerryFormats
import FerryMigration
import FerryModel

/// A backup's last check before it counts as one: the new folder is restored, as `ferry restore`
/// would restore it, into a scratch store that is then removed. The restore compares every record
/// and every pair of the store it builds with the fingerprints the manifest keeps of the store
/// backed up (computed with SQL on that store, through neither the files' writer nor their
/// reader); the checks before it compare the files with the manifest only, which the same writer
/// made. A backup some of whose records would be rejected, or whose pairs would be left out, is
/// no more one that restores than one whose values differ.
struct BackupRestoreCheck {
    /// The new backup's folder (not yet renamed into place).
    let backup: String
    /// The folder of backups, which messages name.
    let folder: String
    /// The model version the store was exported with.
    let model: ManagedObjectModel

    /// Restores the backup and throws `ExportError.verification` (naming the backup folder)
    /// when the restore fails or does not bring back every record and pair.
    func run(progress: @escaping (JobProgress) -> Void) throws(ExportError) {
        let scratch: ScratchFolder
        do { scratch = try ScratchFolder.make(purpose: "backup-restore") } catch {
            // The temporary folder's fault, not the backup folder's: named, with the way around it.
            let temporary = ScratchFolder.systemTemporaryDirectory
            if let failure = WriteFailure.of(error) { throw .noRoom(failure) }
            throw .cannotWrite(path: temporary, reason: "\(ErrorText.reason(of: error, at: temporary)) (the temporary folder, where the "
                + "new backup is restored to check it: set TMPDIR to another, or give --no-restore-check)")
        }
        defer { scratch.remove() }
        let restore = RestoreJob(folder: backup, model: .version(model, origin: "the store's model version \(model.name)"),
                                 outputPath: scratch.database("restored.sqlite"))
        let summary: RestoreJob.Summary
        do {
            summary = try restore.run { progress(JobProgress(phase: "restoring the backup to check it: \($0.phase)", done: $0.done, total: $0.total)) }
        } catch {
            // No room for the scratch store is the temporary folder's, not a fault of the backup.
            if let failure = error.writeFailure { throw .noRoom(failure) }
            throw .verification(path: folder, reason: "the new backup does not restore: \(error)")
        }
        let faults = Self.faults(of: summary)
        guard faults.isEmpty else {
            throw .verification(path: folder, reason: "the new backup does not restore every record: " + faults.joined(separator: "; "))
        }
    }

    /// What the restore did not bring back, or could not compare.
    static func faults(of summary: RestoreJob.Summary) -> [String] {
        var faults: [String] = []
        if summary.rejected > 0 {
            let first = summary.sampleRejects.first.map { " (first: \($0.summary))" } ?? ""
            faults.append("\(summary.rejected) record\(summary.rejected == 1 ? "" : "s") rejected\(first)")
        }
        for (relationship, count) in summary.unmatchedPairs.sorted(by: { $0.key < $1.key }) {
            faults.append("\(relationship): \(count) pair\(count == 1 ? "" : "s") name a record the backup does not list")
        }
        if !summary.unlistedFiles.isEmpty { faults.append("files the manifest does not list: \(summary.unlistedFiles.joined(separator: ", "))") }
        if !summary.compared { faults.append("not compared with the store's fingerprints (\(summary.notCompared ?? "none kept"))") }
        return faults
    }
}
