#if canImport(Glibc)
import Glibc
#endif

/// A file per process for the targets whose parsers take a path (model folders, stores), in
/// `/dev/shm` when it exists so that each input costs no disk write.
enum ScratchFile {
    static let folder: String = {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        let path = "\(base)/ferry-fuzz-\(getpid())"
        mkdir(path, 0o700)
        return path
    }()

    /// Writes `bytes` to `name` inside the folder and returns its path.
    static func store(_ bytes: [UInt8], as name: String) -> String {
        let path = folder + "/" + name
        for stale in ["", "-wal", "-shm", "-journal"] { unlink(path + stale) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { fatalError("cannot write \(path)") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            guard count > 0 else { fatalError("cannot write \(path)") }
            written += count
        }
        close(descriptor)
        return path
    }
}
