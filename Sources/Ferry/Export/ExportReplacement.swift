#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats
import FoundationEssentials

/// The replacement of the export a folder holds by the one built inside it (`DIR/.ferry-<UUID>.tmp`,
/// see `ExportPlacement`): file by file, so that the folder keeps what else it holds, and made
/// so that a run stopped midway is completed, never left half done.
///
/// It begins with a note in the building folder (`noteName`), once every file of the new export
/// is there: the names to rename into the folder, the manifest last, and the names of the old
/// export's files to remove. From then on it only goes forward: the old manifest is removed (the
/// folder holds a manifest only when its files are complete), each file renamed over its
/// namesake, the manifest last, the old export's other files removed, the note removed. Every
/// step can be taken again, so the next export into the folder finishes a replacement that a
/// crash stopped (`leftover(in:destination:)`), before it writes anything; a signal waits for
/// the end (`TemporaryFiles.deferringSignals`). The new files and the note are on disk before
/// the first step, and the folder's new entries before the note goes (`DiskSync`), so that a
/// power loss too leaves a replacement the next export finishes.
struct ExportReplacement {
    /// The note's name in the building folder. Its entries end with a zero byte and start with
    /// `+` (a file to rename in) or `-` (a file of the old export to remove).
    static let noteName = ".placing"
    let destination: String
    let building: String
    /// Renamed in, in order (the manifest last).
    let incoming: [String]
    /// Files of the old export to remove.
    let stale: [String]

    /// Puts the note on disk, once every file of the new export is (`ExportPlacement` syncs them
    /// first): from here on the replacement is completed, by this run or the next.
    static func begin(destination: String, building: String, incoming: [String], stale: [String]) throws(ByteSinkError) -> ExportReplacement {
        let replacement = ExportReplacement(destination: destination, building: building, incoming: incoming, stale: stale)
        // Finishing skips a file not in the building folder (put in place already): each must be there now.
        for name in incoming where !replacement.exists(building + "/" + name) {
            throw ByteSinkError(path: building + "/" + name, operation: "find", code: ENOENT)
        }
        var bytes: [UInt8] = []
        for name in incoming { bytes += [UInt8(ascii: "+")] + Array(name.utf8) + [0] }
        for name in stale { bytes += [UInt8(ascii: "-")] + Array(name.utf8) + [0] }
        let path = replacement.notePath
        let note = try FileByteSink(path: path, exclusive: true)
        do {
            try note.write(bytes)
            try note.close(sync: true)
            // The note's entry, and the building folder's own.
            try DiskSync.sync(building)
            try DiskSync.sync(destination)
        } catch {
            unlink(path)
            throw error
        }
        return replacement
    }

    /// The replacement a dead run began in the building folder `building`; nil when its note is
    /// not there (the run died before it began: its folder only goes) or cannot be read whole.
    static func leftover(in building: String, destination: String) -> ExportReplacement? {
        guard let data = FileManager.default.contents(atPath: building + "/" + noteName), data.last == 0 else { return nil }
        let bytes = [UInt8](data)
        var incoming: [String] = []
        var stale: [String] = []
        for entry in bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false) {
            let name = String(decoding: entry.dropFirst(), as: UTF8.self)
            guard !name.isEmpty, !name.contains("/") else { return nil }
            switch entry.first {
            case UInt8(ascii: "+"): incoming.append(name)
            case UInt8(ascii: "-"): stale.append(name)
            default: return nil
            }
        }
        guard incoming.last == ExportManifest.fileName else { return nil }
        return ExportReplacement(destination: destination, building: building, incoming: incoming, stale: stale)
    }

    private var notePath: String { building + "/" + Self.noteName }

    /// Takes every step not taken yet; the building folder is then empty.
    func finish() throws(ByteSinkError) {
        let manifest = destination + "/" + ExportManifest.fileName
        // The new manifest still waits: the one in the folder (if any) is the old one.
        if exists(building + "/" + ExportManifest.fileName) {
            guard unlink(manifest) == 0 || errno == ENOENT else { throw ByteSinkError(path: manifest, operation: "unlink", code: errno) }
        }
        for name in incoming where exists(building + "/" + name) {
            try FilePath.rename(building + "/" + name, to: destination + "/" + name, replacing: true)
        }
        for name in stale { unlink(destination + "/" + name) }
        // The folder's new entries on disk before the note that would finish them goes.
        try DiskSync.sync(destination)
        guard unlink(notePath) == 0 || errno == ENOENT else { throw ByteSinkError(path: notePath, operation: "unlink", code: errno) }
    }

    private func exists(_ path: String) -> Bool {
        FileInfo.kind(atPath: path) != nil
    }
}
