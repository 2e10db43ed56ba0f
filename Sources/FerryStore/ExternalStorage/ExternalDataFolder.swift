#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FerryFormats

/// The folder beside a store where Core Data keeps the values it moved out of the database:
/// `.<store name without extension>_SUPPORT/_EXTERNAL_DATA`, one file per value.
public enum ExternalDataFolder {
    /// The folder of the store at `storePath`.
    public static func path(besideStore storePath: String) -> String {
        let components = storePath.split(separator: "/", omittingEmptySubsequences: false)
        let file = components.last.map(String.init) ?? storePath
        let base = file.split(separator: ".").dropLast().joined(separator: ".")
        let directory = components.dropLast().joined(separator: "/")
        return (directory.isEmpty ? "." : directory) + "/.\(base.isEmpty ? file : base)_SUPPORT/_EXTERNAL_DATA"
    }

    /// The content of the file `name` (a plain file name) in the folder of the store at `storePath`.
    ///
    /// Only a regular file inside real folders is read: a store is untrusted input, and a symbolic
    /// link (in the folder, or as the `_SUPPORT` or `_EXTERNAL_DATA` folder) would pull in a file
    /// from anywhere on the machine as the value, and a FIFO or device would block or never end.
    /// The paths are checked first (for a message that says what is there); the file is then
    /// opened so that one swapped for a link or a FIFO meanwhile is refused as well.
    static func read(fileNamed name: String, besideStore storePath: String) throws(ExternalBinaryDataError) -> [UInt8] {
        let path = path(besideStore: storePath) + "/" + name
        if let problem = problem(besideStore: storePath) { throw .unreadableFile(path: path, reason: problem) }
        // Missing: reported by the read below.
        if let kind = FileInfo.kind(atPath: path), kind != .regularFile {
            throw .unreadableFile(path: path, reason: "\(path) is \(Self.describe(kind)), not a regular file of the store")
        }
        do {
            let source = try FileByteSource(regularFileAt: path)
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
                if count == 0 { return bytes }
                bytes += chunk.prefix(count)
            }
        } catch {
            throw .unreadableFile(path: path, reason: ErrorText.reason(of: error, at: path))
        }
    }

    /// Why the folders of the store at `storePath` are not ones whose files Ferry reads or
    /// removes: the `_SUPPORT` or `_EXTERNAL_DATA` folder is there but is not a real folder (a
    /// symbolic link would reach files anywhere on the machine). Nil when each is a real folder or
    /// missing.
    public static func problem(besideStore storePath: String) -> String? {
        let folder = path(besideStore: storePath)
        for place in [String(folder.dropLast("/_EXTERNAL_DATA".count)), folder] {
            guard let kind = FileInfo.kind(atPath: place) else { return nil }
            guard kind == .directory else { return "\(place) is \(describe(kind)), not a folder of the store" }
        }
        return nil
    }

    /// Removes the regular file `name` from the folder of the store at `storePath`; false when
    /// it is not there or is not a regular file, or a folder on the way is not a real folder.
    /// Each folder below the store's own is opened without following a symbolic link, and the
    /// file is removed through the last one, so a folder swapped for a link meanwhile removes
    /// nothing outside the store.
    public static func remove(fileNamed name: String, besideStore storePath: String) -> Bool {
        let folder = path(besideStore: storePath)
        let names = folder.split(separator: "/", omittingEmptySubsequences: false).suffix(2).map(String.init)
        let storeFolder = String(folder.dropLast(names.joined(separator: "/").count + 1))
        var descriptor = open(storeFolder.isEmpty ? "/" : storeFolder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        for component in names {
            let next = openat(descriptor, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { return false }
            _ = close(descriptor)
            descriptor = next
        }
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return unlinkat(descriptor, name, 0) == 0
    }

    private static func describe(_ kind: FileInfo.Kind) -> String {
        switch kind {
        case .regularFile: "a regular file"
        case .directory: "a folder"
        case .symbolicLink: "a symbolic link"
        case .special: "a FIFO, socket or device"
        }
    }
}
