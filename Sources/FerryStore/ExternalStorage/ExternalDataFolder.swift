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
    static func read(fileNamed name: String, besideStore storePath: String) throws(ExternalBinaryDataError) -> [UInt8] {
        let path = path(besideStore: storePath) + "/" + name
        do {
            let source = try FileByteSource(path: path)
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
}
