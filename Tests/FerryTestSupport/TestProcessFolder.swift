import Foundation

/// The one temporary folder a test process writes into: `ferry-tests-<pid>` in the system's
/// temporary directory, removed when the process exits. Tests make thousands of folders; without
/// this every run left them all behind. A run that was killed cannot remove its own folder, so
/// the first use sweeps the folders of test processes that are no longer alive.
public enum TestProcessFolder {
    private static let prefix = "ferry-tests-"

    /// The folder's path; created, and its removal at exit registered, on first use.
    public static let path: String = {
        let temporary = FileManager.default.temporaryDirectory.path
        sweepDeadProcesses(in: temporary)
        let folder = temporary + "/" + prefix + String(getpid())
        try? FileManager.default.removeItem(atPath: folder)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        folderToRemove = strdup(folder)
        atexit { removeAtExit() }
        return folder
    }()

    /// The path `atexit` removes; a C string, as the handler may not capture anything.
    nonisolated(unsafe) private static var folderToRemove: UnsafeMutablePointer<CChar>?

    private static func removeAtExit() {
        guard let folder = folderToRemove else { return }
        try? FileManager.default.removeItem(atPath: String(cString: folder))
    }

    /// Removes `ferry-tests-<pid>` folders whose process has ended.
    private static func sweepDeadProcesses(in temporary: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: temporary + "/" + name)
            }
        }
    }
}
