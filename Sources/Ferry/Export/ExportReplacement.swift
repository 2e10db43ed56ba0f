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
    /// `+` (a file to rename in) or `-` and the file's SHA-256 in hex (a file of the old export to
    /// remove).
    static let noteName = ".placing"
    let destination: String
    let building: String
    /// Renamed in, in order (the manifest last).
    let incoming: [String]
    /// Files of the old export to remove.
    let stale: [StaleFile]

    /// A file of the old export, to remove only while it still holds what that export wrote: one
    /// changed since (by the user, maybe after a crash stopped the replacement) is theirs.
    struct StaleFile {
        let name: String
        /// The SHA-256 the old export's manifest gives, in lowercase hex.
        let sha256: String

        /// Whether the file in `folder` is a regular file still as the old export wrote it.
        func isUnchanged(in folder: String) -> Bool {
            (try? FileDigest.sha256(of: folder + "/" + name, regularFileOnly: true))?.digest == sha256
        }
    }

    /// Puts the note on disk, once every file of the new export is (`ExportPlacement` syncs them
    /// first): from here on the replacement is completed, by this run or the next.
    static func begin(destination: String, building: String, incoming: [String], stale: [StaleFile]) throws(ByteSinkError) -> ExportReplacement {
        let replacement = ExportReplacement(destination: destination, building: building, incoming: incoming, stale: stale)
        // Finishing skips a file not in the building folder (put in place already): each must be there now.
        for name in incoming where !replacement.exists(building + "/" + name) {
            throw ByteSinkError(path: building + "/" + name, operation: "find", code: ENOENT)
        }
        var bytes: [UInt8] = []
        for name in incoming { bytes += [UInt8(ascii: "+")] + Array(name.utf8) + [0] }
        for file in stale { bytes += [UInt8(ascii: "-")] + Array(file.sha256.utf8) + Array(file.name.utf8) + [0] }
        let path = replacement.notePath
        let note = try FileByteSink(path: path, exclusive: true)
        do {
            try note.write(bytes)
            try note.close(sync: true)
            // The note's entry, and the building folder's own.
            try DiskSync.syncFolder(building)
            try DiskSync.syncFolder(destination)
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
        var stale: [StaleFile] = []
        for entry in bytes.dropLast().split(separator: 0, omittingEmptySubsequences: false) {
            let body = entry.dropFirst()
            switch entry.first {
            case UInt8(ascii: "+"):
                guard let name = fileName(body) else { return nil }
                incoming.append(name)
            case UInt8(ascii: "-"):
                let digest = String(decoding: body.prefix(digestLength), as: UTF8.self)
                guard digest.count == digestLength, digest.allSatisfy(\.isHexDigit), let name = fileName(body.dropFirst(digestLength)) else { return nil }
                stale.append(StaleFile(name: name, sha256: digest))
            default: return nil
            }
        }
        guard incoming.last == ExportManifest.fileName else { return nil }
        return ExportReplacement(destination: destination, building: building, incoming: incoming, stale: stale)
    }

    /// Hex digits of a SHA-256.
    private static let digestLength = 64

    /// A name of a file in the folder: not empty, no `/`.
    private static func fileName(_ bytes: ArraySlice<UInt8>) -> String? {
        let name = String(decoding: bytes, as: UTF8.self)
        return name.isEmpty || name.contains("/") ? nil : name
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
        for file in stale where file.isUnchanged(in: destination) { unlink(destination + "/" + file.name) }
        // The folder's new entries on disk before the note that would finish them goes.
        try DiskSync.syncFolder(destination)
        guard unlink(notePath) == 0 || errno == ENOENT else { throw ByteSinkError(path: notePath, operation: "unlink", code: errno) }
    }

    private func exists(_ path: String) -> Bool {
        FileInfo.kind(atPath: path) != nil
    }
}
