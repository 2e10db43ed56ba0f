import FerryFormats
import FerryStore
import FerryVerify

/// `ferry verify STORE` on a store that may be written while it is verified. The checks read it
/// on several connections; an app writing it meanwhile makes them read different states, which
/// `StoreVerifier` finds (`.changedWhileVerifying`). The store is verified again once, and if it
/// changed again (an app that opens, commits and closes it all the time), one committed state of
/// it is copied (`CommittedStoreCopy`) and the copy is verified, the report naming
/// the store and saying so.
public enum ChangingStoreVerification {
    public static func verify(path: String, model: VerificationModel, options: VerificationOptions,
                              progress: @escaping (String) -> Void = { _ in }) throws(VerificationError) -> VerificationReport {
        let once = { (target: String) throws(VerificationError) -> VerificationReport in
            try StoreVerifier(path: target, model: model).verify(options: options, progress: progress)
        }
        do {
            do { return try once(path) } catch .changedWhileVerifying { return try once(path) }
        } catch .changedWhileVerifying {
            let folder: ScratchFolder
            do { folder = try ScratchFolder.make(purpose: "verify") } catch {
                throw .unreadableStore(.cannotOpen(path: path, reason: "no folder to copy it into while it is written: \(error)"))
            }
            defer { folder.remove() }
            let copy: String
            do { copy = try CommittedStoreCopy.make(of: path, in: folder, attempts: 20).path } catch {
                // Written during every attempt: as it was; otherwise what failed (no room for
                // the copy, a lock held too long, damage).
                throw error.primaryCode == 5 ? .changedWhileVerifying(path: path) : .unreadableStore(.sqlite(error))
            }
            var report = try once(copy)
            report.store = path
            report.notes.append("\(path) was written while it was verified: one committed state of it was copied (SQLite's online "
                + "backup, page by page) and the checks ran on that copy")
            return report
        }
    }
}
