import FoundationEssentials

/// How a summary says that a built store was not kept: the destination is as it was when it
/// existed before the run, and otherwise nothing was written there.
enum DiscardedStoreText {
    /// `not kept, because REASON: STORE is as it was` or `…: nothing was written to STORE`.
    static func text(reason: String, path: String) -> String {
        let destination = FileManager.default.fileExists(atPath: path) ? "\(path) is as it was" : "nothing was written to \(path)"
        return "not kept, because \(reason): \(destination)"
    }
}
