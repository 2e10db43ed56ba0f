import FerryStore

/// Collects what the checks did: per section, how many ran and what failed; per subject
/// (entity or `Entity.relationship`), how many checks and failures, for the summary tables.
struct CheckRecorder {
    private(set) var sections: [VerificationSection] = []
    private(set) var checksBySubject: [String: Int] = [:]
    private(set) var failuresBySubject: [String: Int] = [:]
    /// States a check found that Core Data itself allows, reported without failing.
    private(set) var notes: [String] = []
    /// The failures that are checks which could not run (their query failed: too many open
    /// files, a lock, no room for SQLite's temporary files), also among `sections`' failures, with
    /// SQLite's error: no verdict on the store.
    private(set) var unrun: [(failure: VerificationFailure, cause: SQLiteError)] = []

    /// Notes a state that is not a failure (see `VerificationReport.notes`).
    mutating func note(_ text: String) {
        notes.append(text)
    }

    /// Notes that one check ran.
    mutating func ran(_ section: String, subject: String) {
        self[section].checks += 1
        checksBySubject[subject, default: 0] += 1
    }

    /// Notes a failure of a check that ran (counted by `ran` separately).
    mutating func failed(_ section: String, _ failure: VerificationFailure) {
        self[section].failures.append(failure)
        failuresBySubject[failure.subject, default: 0] += 1
    }

    /// Runs one check: notes it, and records its failure when it returns one. A query that fails
    /// is a check that could not run (`couldNotRun`).
    /// The error of a report whose failures are all checks that could not run (nil when one that
    /// ran failed, or none could not run): a report that is no verdict.
    func noVerdict(path: String, failures: Int) -> VerificationError? {
        guard let first = unrun.first, unrun.count == failures else { return nil }
        return .checksCouldNotRun(path: path, count: unrun.count, first: VerificationReportText.line(first.failure), cause: first.cause)
    }

    mutating func check(_ section: String, subject: String, code: String,
                        _ body: () throws(SQLiteError) -> VerificationFailure?) {
        ran(section, subject: subject)
        do {
            if let failure = try body() { failed(section, failure) }
        } catch {
            couldNotRun(section, check: code, subject: subject, error)
        }
    }

    /// Records a check (`code`) whose query failed, with SQLite's message: a failure of the
    /// report, and one of `unrun`, so that a report of such failures alone is no verdict.
    mutating func couldNotRun(_ section: String, check code: String, subject: String, _ error: SQLiteError) {
        let failure = VerificationFailure(check: code, subject: subject, message: "the check could not run: \(error)")
        failed(section, failure)
        unrun.append((failure, error))
    }

    /// Checks and failures of a subject and of everything named below it (`Entity.x`).
    func tally(of subject: String) -> (checks: Int, failures: Int) {
        func sum(_ counts: [String: Int]) -> Int {
            counts.reduce(0) { total, entry in
                entry.key == subject || entry.key.hasPrefix(subject + ".") ? total + entry.value : total
            }
        }
        return (sum(checksBySubject), sum(failuresBySubject))
    }

    private subscript(name: String) -> VerificationSection {
        get { sections.first { $0.name == name } ?? VerificationSection(name: name) }
        set {
            if let index = sections.firstIndex(where: { $0.name == name }) {
                sections[index] = newValue
            } else {
                sections.append(newValue)
            }
        }
    }
}
