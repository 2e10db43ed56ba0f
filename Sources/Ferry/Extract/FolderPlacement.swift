#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats
import FoundationEssentials

/// Puts a folder that was built aside its target in place, so that the target is the old folder
/// or the complete new one: never a half-written one, and never missing, however the run ends.
enum FolderPlacement {
    /// Renames `finished` to `target`. An existing target is refused unless `replacing`; then
    /// the two are swapped in one step (`FilePath.exchange`), which leaves the old folder at
    /// `finished` for its owner to remove. Where the file system cannot swap, the old folder is
    /// renamed to `aside` first (a path in the run's own folder, so that the next run puts it
    /// back should this one die before the new folder is in place: `restoreAside`), renamed
    /// back if the new folder cannot be put in place; a signal waits for the end.
    static func place(_ finished: String, at target: String, replacing: Bool, aside: String) throws(ModelExtractError) {
        let exists = FileManager.default.fileExists(atPath: target)
        guard !exists || replacing else { throw .destinationExists(target) }
        if exists {
            do { if try FilePath.exchange(finished, target) { return } } catch {
                throw .cannotWrite(path: target, reason: "cannot swap \(finished) into place: \(error.reason)")
            }
        }
        try TemporaryFiles.deferringSignals { () throws(ModelExtractError) in
            if exists, rename(target, aside) != 0 { throw failure(target, "cannot move the existing one aside") }
            guard rename(finished, target) == 0 else {
                let error = failure(target, "cannot rename \(finished) into place")
                if exists { rename(aside, target) }
                throw error
            }
        }
    }

    /// Puts back the folder a dead run moved aside (`place`) when the target is still missing;
    /// false when it is and cannot be.
    static func restoreAside(_ aside: String, at target: String) -> Bool {
        guard FileInfo.kind(atPath: aside) != nil, FileInfo.kind(atPath: target) == nil else { return true }
        return rename(aside, target) == 0
    }

    private static func failure(_ path: String, _ what: String) -> ModelExtractError {
        .cannotWrite(path: path, reason: "\(what): \(String(cString: strerror(errno)))")
    }
}
