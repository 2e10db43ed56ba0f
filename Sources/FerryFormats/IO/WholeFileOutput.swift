#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One output file of a run, written whole or not at all: its bytes go to a file built beside
/// the destination (`OwnedTemporary`), renamed over it once complete, so that a failure or a
/// signal leaves the destination as it was (what a killed run left beside it is removed by the
/// next write to it, `OwnedTemporary.sweep`). An existing destination is replaced only when asked,
/// and never when it is not a regular file (a folder, a device, a FIFO). `-` is standard output,
/// written as the bytes come.
public enum WholeFileOutput {
    /// Why the file was not written.
    public enum Failure: Error, CustomStringConvertible {
        /// Something is at the destination and `replacing` was not asked.
        case exists(String)
        /// The destination is a folder or a socket.
        case notAFile(String)
        /// The folder the file goes in is not there.
        case noFolder(String, folder: String)
        /// Writing or placing the file failed.
        case write(ByteSinkError)
        /// What fills the file failed (its own error).
        case filling(any Error)

        public var description: String {
            switch self {
            case .exists(let path): "\(path) exists (use --force to replace it)"
            case .notAFile(let path): "\(path) is a folder or a special file, not a file: name a file to write"
            case let .noFolder(path, folder): "\(path): the folder \(folder) is not there (create it first); nothing was written"
            case .write(let error): error.description
            case .filling(let error): "\(error)"
            }
        }
    }

    /// Writes the file at `path` with what `fill` writes to the sink it is given. A device or a
    /// FIFO (`/dev/stdout`, `/dev/null`) is written as the bytes come, as standard output is; a
    /// file replaced keeps its permissions.
    public static func write(to path: String, replacing: Bool, _ fill: (FileByteSink) throws -> Void) throws(Failure) {
        guard path != "-", FileInfo.finalKind(atPath: path) != .special else {
            do {
                let sink = try FileByteSink(path: path)
                try fill(sink)
                try sink.close()
            } catch let error as ByteSinkError { throw .write(error) } catch { throw .filling(error) }
            return
        }
        // Anything there, a link to nothing included, is replaced only when asked; a link is
        // judged by what it names, and replaced itself (the file it named stays).
        var mode: mode_t?
        if FileInfo.kind(atPath: path) != nil {
            guard FileInfo.finalKind(atPath: path).map({ $0 == .regularFile }) ?? true else { throw .notAFile(path) }
            guard replacing else { throw .exists(path) }
            var info = stat()
            if stat(path, &info) == 0 { mode = info.st_mode & 0o7777 }
        }
        let folder = FilePath.split(path).folder
        guard FileInfo.finalKind(atPath: folder) == .directory else { throw .noFolder(path, folder: folder) }
        // What a killed run left beside the destination goes now: nothing else removes it.
        OwnedTemporary.sweep(beside: path, kind: .file)
        let temporary: OwnedTemporary
        do { temporary = try OwnedTemporary.create(beside: path, kind: .file) } catch {
            throw .write(ByteSinkError(path: path, operation: "create a file beside", code: error.code))
        }
        do {
            let sink = try FileByteSink(path: temporary.path)
            try fill(sink)
            try sink.close()
            if let mode, chmod(temporary.path, mode) != 0 { throw ByteSinkError(path: path, operation: "chmod", code: errno) }
            try FilePath.rename(temporary.path, to: path, replacing: replacing)
            temporary.release()
        } catch let error as ByteSinkError {
            temporary.remove()
            guard error.code != EEXIST else { throw .exists(path) }
            // The file built beside the destination is this run's own: the destination is named.
            throw .write(error.path == temporary.path ? ByteSinkError(path: path, operation: error.operation, code: error.code) : error)
        } catch {
            temporary.remove()
            throw .filling(error)
        }
    }
}
