#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats
import FoundationEssentials

/// Puts a folder that was built beside its target in place with `rename`, so that the target is
/// either absent, the old folder or the complete new one, never a half-written one.
enum FolderPlacement {
    /// A fresh hidden path in the target's folder (so the same file system) that ends like the
    /// target, extension included: `.<label>-<UUID>-<name>`.
    static func temporaryPath(beside target: String, label: String) -> String {
        let (folder, name) = FilePath.split(target)
        return folder + "/." + label + "-" + UUID().uuidString + "-" + name
    }

    /// Renames `finished` to `target`. An existing target is refused unless `replacing`; then it is
    /// renamed aside first, renamed back if the new folder cannot be put in place, and removed
    /// once it is.
    static func place(_ finished: String, at target: String, replacing: Bool) throws(ModelExtractError) {
        let exists = FileManager.default.fileExists(atPath: target)
        guard !exists || replacing else { throw .destinationExists(target) }
        let aside = exists ? temporaryPath(beside: target, label: "replaced") : nil
        if let aside, rename(target, aside) != 0 { throw failure(target, "cannot move the existing one aside") }
        guard rename(finished, target) == 0 else {
            let error = failure(target, "cannot rename \(finished) into place")
            if let aside { rename(aside, target) }
            throw error
        }
        if let aside { try? FileManager.default.removeItem(atPath: aside) }
    }

    private static func failure(_ path: String, _ what: String) -> ModelExtractError {
        .cannotWrite(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
