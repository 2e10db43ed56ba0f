import Ferry

/// The warnings of a job whose store held what no Ferry job carries (`LeftBehind`): Core Data's
/// own records, tables outside its layout.
enum LeftBehindText {
    /// One `warning:` line per kind left behind by `source`.
    static func warn(_ leftBehind: LeftBehind, of source: String, log: RunLog) {
        for line in leftBehind.warnings { log.warning("warning: \(source): \(line)") }
    }
}
