import Ferry
import FerryMigration

/// The warning of an export or backup whose store held Core Data's own records, which the files
/// do not hold.
enum FrameworkRecordsText {
    static func warn(_ manifest: ExportManifest, log: RunLog) {
        guard let records = manifest.frameworkRecords, !records.isEmpty else { return }
        log.warning("warning: \(manifest.source): " + FrameworkRecords.notCarried(records))
    }
}
