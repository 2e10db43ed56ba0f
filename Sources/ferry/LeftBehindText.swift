import Ferry

/// The warnings of a job whose store held what no Ferry job carries (`LeftBehind`): Core Data's
/// own records, tables outside its layout.
enum LeftBehindText {
    /// One `warning:` line per kind left behind by `source`.
    static func warn(_ leftBehind: LeftBehind, of source: String, log: RunLog) {
        for line in leftBehind.warnings { log.warning("warning: \(source): \(line)") }
    }

    /// One `warning:` line per relationship whose pairs an export could hold in no file
    /// (`ExportManifest.pairsWithoutSource`).
    static func warnPairsWithoutSource(_ manifest: ExportManifest, log: RunLog) {
        for (relationship, count) in (manifest.pairsWithoutSource ?? [:]).sorted(by: { $0.key < $1.key }) {
            log.warning("warning: \(manifest.source): \(relationship): \(count) pair\(count == 1 ? "" : "s") with no record to list "
                + "\(count == 1 ? "it" : "them") (a dangling key or join row): in no file of the export, and not restored")
        }
    }
}
