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
        let folder = path(besideStore: storePath)
        let path = folder + "/" + name
        let support = String(folder.dropLast("/_EXTERNAL_DATA".count))
        for (place, expected) in [(support, FileInfo.Kind.directory), (folder, .directory), (path, .regularFile)] {
            guard let kind = FileInfo.kind(atPath: place) else { break }  // missing: reported by the read below
            guard kind == expected else {
                throw .unreadableFile(path: path, reason: "\(place) is \(Self.describe(kind)), not a \(expected == .directory ? "folder" : "regular file") of the store")
            }
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

    private static func describe(_ kind: FileInfo.Kind) -> String {
        switch kind {
        case .regularFile: "a regular file"
        case .directory: "a folder"
        case .symbolicLink: "a symbolic link"
        case .special: "a FIFO, socket or device"
        }
    }
}
