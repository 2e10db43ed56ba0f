import FerryFormats
import FerryModel

/// Values of attributes that allow external binary storage, as Core Data stores them: the column
/// holds a tag byte, then either the bytes themselves (`0x01`) or, for values Core Data moved out
/// of the database, the name of a file (`0x02`, the name, a NUL) in the store's hidden
/// `.<store name>_SUPPORT/_EXTERNAL_DATA/` folder beside it.
public enum ExternalBinaryData {
    public static let inlineTag: UInt8 = 1
    public static let externalTag: UInt8 = 2

    /// The column value Core Data writes for `bytes` kept in the database.
    public static func inlineValue(_ bytes: [UInt8]) -> [UInt8] {
        [inlineTag] + bytes
    }

    /// The bytes a stored value stands for; an external value is read from its file.
    static func resolve(_ stored: [UInt8], storePath: String) throws(ValueProblem) -> [UInt8] {
        guard let tag = stored.first else { return stored }
        switch tag {
        case inlineTag:
            return Array(stored.dropFirst())
        case externalTag:
            let name = String(decoding: stored.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
            guard !name.isEmpty, !name.contains("/"), name != "..", name != "." else {
                throw ValueProblem(reason: "external data reference with an invalid file name")
            }
            let path = folder(of: storePath) + "/" + name
            do { return try readFile(path) } catch {
                throw ValueProblem(reason: "external data file \(path) cannot be read: \(error)")
            }
        default:
            throw ValueProblem(reason: "external-storage value with unknown tag byte \(tag)")
        }
    }

    /// `.<store name without extension>_SUPPORT/_EXTERNAL_DATA` beside the store.
    public static func folder(of storePath: String) -> String {
        let components = storePath.split(separator: "/", omittingEmptySubsequences: false)
        let file = components.last.map(String.init) ?? storePath
        let base = file.split(separator: ".").dropLast().joined(separator: ".")
        let directory = components.dropLast().joined(separator: "/")
        return (directory.isEmpty ? "." : directory) + "/.\(base.isEmpty ? file : base)_SUPPORT/_EXTERNAL_DATA"
    }

    private static func readFile(_ path: String) throws -> [UInt8] {
        let source = try FileByteSource(path: path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return bytes }
            bytes += chunk.prefix(count)
        }
    }
}
