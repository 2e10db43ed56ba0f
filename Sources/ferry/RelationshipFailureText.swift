import Ferry

/// The warnings of a job that read a store failing `ferry verify`'s relationship checks
/// (`StoreVerifier.relationshipFailures`, one line each): a key naming no row, an entity column
/// naming another entity than its row's, sides of a one-to-one that disagree.
enum RelationshipFailureText {
    /// One `warning:` line per failure: `store` (as the job names it) fails it, and `outcome`
    /// says what the job made of the pairs concerned. Returns whether there was one.
    @discardableResult
    static func warn(_ failures: [String], of store: String, outcome: String, log: RunLog) -> Bool {
        for failure in failures {
            log.warning("warning: \(store) fails a relationship check of ferry verify (\(outcome)): \(failure)")
        }
        return !failures.isEmpty
    }

    /// The warning of a job whose relationship checks did not run on the state it read
    /// (`reason`, nil when they ran; `state` says what the job did with it: exported, migrated):
    /// their failures, none named, are no verdict. Returns whether there was one.
    @discardableResult
    static func warnUnchecked(_ reason: String?, of store: String, state: String = "exported", remedy: String, log: RunLog) -> Bool {
        guard let reason else { return false }
        log.warning("warning: \(store): ferry verify's relationship checks did not run on the state \(state) (\(reason)): "
            + "its relationships are not known to hold; \(remedy)")
        return true
    }
}
