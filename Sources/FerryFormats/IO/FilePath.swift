#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path and directory operations with the system's calls: splitting a path, listing a folder,
/// and renaming without ever replacing.
public enum FilePath {
    /// The folder (`.` when none) and last component of a path.
    public static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// `path` without the slashes that end it: `out/` names the folder `out` (whose name is then
    /// its last component, not an empty one); `/` stays `/`.
    public static func withoutTrailingSlashes(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The names in a folder (not `.` and `..`); empty when it cannot be read.
    public static func entries(of folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes `path` when it is a regular file (a partly written output; never a device such as
    /// `/dev/full`, a folder or a link).
    public static func removeRegularFile(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        unlink(path)
    }

    /// A random (version 4) UUID in its usual upper-case text form.
    public static func randomUUIDString() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let digits = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append(UInt8(ascii: "-")) }
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Renames `source` to `destination`. Unless `replacing`, an existing destination is never
    /// replaced, not even one created an instant before: `renameat2(RENAME_NOREPLACE)`, or where
    /// the system or file system lacks it, `link` then `unlink` for a file (a folder is then
    /// renamed after a check, the one case with a window). Throws `EEXIST` when it exists.
    public static func rename(_ source: String, to destination: String, replacing: Bool) throws(ByteSinkError) {
        if replacing {
            guard systemRename(source, destination) == 0 else { throw ByteSinkError(path: destination, operation: "rename", code: errno) }
            return
        }
        if let renameat2 = RenameAt2.function {
            if renameat2(AT_FDCWD, source, AT_FDCWD, destination, RenameAt2.noReplace) == 0 { return }
            guard errno == EINVAL || errno == ENOSYS else { throw ByteSinkError(path: destination, operation: "rename", code: errno) }
        }
        var info = stat()
        if lstat(source, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            guard link(source, destination) == 0 else { throw ByteSinkError(path: destination, operation: "link", code: errno) }
            unlink(source)
            return
        }
        guard access(destination, F_OK) != 0 else { throw ByteSinkError(path: destination, operation: "rename", code: EEXIST) }
        guard systemRename(source, destination) == 0 else { throw ByteSinkError(path: destination, operation: "rename", code: errno) }
    }

    /// Swaps `first` and `second`, which both exist, in one step (`renameat2(RENAME_EXCHANGE)`,
    /// macOS's `renamex_np(RENAME_SWAP)`): each path names the other's file or folder, and no
    /// moment sees either missing. False where the system or file system cannot (the caller
    /// then places another way); throws any other failure.
    public static func exchange(_ first: String, _ second: String) throws(ByteSinkError) -> Bool {
        #if os(Linux)
        guard let renameat2 = RenameAt2.function else { return false }
        if renameat2(AT_FDCWD, first, AT_FDCWD, second, RenameAt2.exchange) == 0 { return true }
        #elseif canImport(Darwin)
        if renamex_np(first, second, UInt32(RENAME_SWAP)) == 0 { return true }
        #endif
        guard errno == EINVAL || errno == ENOSYS || errno == ENOTSUP else { throw ByteSinkError(path: second, operation: "rename", code: errno) }
        return false
    }

    private static func systemRename(_ source: String, _ destination: String) -> Int32 {
        #if canImport(Glibc)
        Glibc.rename(source, destination)
        #else
        Darwin.rename(source, destination)
        #endif
    }
}

/// `renameat2`, which the C library has (glibc 2.28 on) but declares only for `_GNU_SOURCE`
/// code: looked up once by name.
private enum RenameAt2 {
    typealias Function = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// `RENAME_NOREPLACE` of `<linux/fs.h>`.
    static let noReplace: UInt32 = 1
    /// `RENAME_EXCHANGE` of `<linux/fs.h>`.
    static let exchange: UInt32 = 2
    static let function: Function? = {
        #if os(Linux)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
        #else
        return nil
        #endif
    }()
}
