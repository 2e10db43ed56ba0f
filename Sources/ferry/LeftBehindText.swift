import Ferry

/// The warnings of a job whose store held what no Ferry job carries (`LeftBehind`): Core Data's
/// own records, tables outside its layout.
enum LeftBehindText {
    /// One `warning:` line per kind left behind by `source`.
    static func warn(_ leftBehind: LeftBehind, of source: String, log: RunLog) {
        for line in leftBehind.warnings { log.warning("warning: \(source): \(line)") }
    }

    /// One `warning:` line per relationship whose pairs an export could hold in no file
    /// (`ExportManifest.pairsWithoutSource`), as export and restore say it; `store` names the
    /// store they are of.
    static func warnPairsWithoutSource(_ pairs: [String: Int64], of store: String, log: RunLog) {
        for (relationship, count) in pairs.sorted(by: { $0.key < $1.key }) {
            log.warning("warning: \(relationship): \(count) pair\(count == 1 ? "" : "s") of \(store) with no record to list "
                + "\(count == 1 ? "it" : "them") (a dangling key or join row): in no exported file, so not restored")
        }
    }
}
