import FerryFormats
import FoundationEssentials

/// The file-system calls of the model loader and writer, with errors as `ModelLoadError` and
/// `ModelWriteError`.
enum ModelFiles {
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    static func read(_ path: String) throws(ModelLoadError) -> [UInt8] {
        do {
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw .unreadable(path: path, reason: exists(path) ? "\(error)" : "no such file")
        }
    }

    static func contents(ofDirectory path: String) throws(ModelLoadError) -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw .unreadable(path: path, reason: ErrorText.reason(of: error, at: path))
        }
    }

    /// Creates a folder; its parent must exist, and the folder must not.
    static func createDirectory(_ path: String) throws(ModelWriteError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            throw .cannotWrite(path: path, reason: exists(path) ? "it exists" : "\(error)")
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws(ModelWriteError) {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .cannotWrite(path: path, reason: ErrorText.reason(of: error, at: path))
        }
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The last path component without its extension.
    static func baseName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let last = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }
}
