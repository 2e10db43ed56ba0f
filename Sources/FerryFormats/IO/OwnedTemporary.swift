#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file or folder built aside its destination, owned by this process through an exclusive
/// `flock` held on it for as long as it exists. The lock dies with the process (a `kill -9`
/// included), so a later run tells a leftover of a dead run (lock free: removed by `sweep`) from
/// the work of a live one (lock held: never touched). The path is also registered with
/// `TemporaryFiles`, so a SIGINT or SIGTERM removes it.
///
/// The owner holds its lock before anything is written: it creates the path, locks it, and checks
/// that the path is still the inode it locked (a sweep may have removed it between the two
/// calls; then it starts again with a fresh name).
///
/// One thread uses an instance at a time (it may be handed from one to another inside a request,
/// hence `@unchecked Sendable`).
public final class OwnedTemporary: @unchecked Sendable {
    public let path: String
    public let kind: TemporaryFiles.Kind
    private var descriptor: Int32
    /// The path and the files known inside or beside it (a folder's files, SQLite's journals).
    private var registrations: [String: TemporaryFiles.Registration] = [:]
    private var released = false

    /// SQLite's files beside a database, removed with it.
    public static let databaseSuffixes = ["-journal", "-wal", "-shm"]

    private init(path: String, kind: TemporaryFiles.Kind, descriptor: Int32, registration: TemporaryFiles.Registration?) {
        self.path = path
        self.kind = kind
        self.descriptor = descriptor
        if let registration { registrations[path] = registration }
    }

    deinit {
        if !released { remove() }
    }

    /// `<destination>.ferry-<UUID>.tmp`: the name of what is built for `destination`.
    public static func name(beside destination: String) -> String {
        nameForm(beside: destination).fresh()
    }

    /// The form of the names of what is built for `destination`, room kept for SQLite's files
    /// beside a database.
    private static func nameForm(beside destination: String) -> TemporaryName {
        TemporaryName(beside: destination, marker: marker, suffix: suffix, reserve: databaseSuffixes.map(\.utf8.count).max() ?? 0)
    }

    static let marker = ".ferry-"
    static let suffix = ".tmp"

    /// Creates and locks a new empty file (or folder) at `name()`'s result beside `destination`.
    public static func create(beside destination: String, kind: TemporaryFiles.Kind) throws(ByteSinkError) -> OwnedTemporary {
        try create(kind: kind) { name(beside: destination) }
    }

    /// Creates and locks a new empty file (or folder) at a fresh path from `fresh`; a folder with
    /// `folderMode` (a private one for what only this run reads).
    public static func create(kind: TemporaryFiles.Kind, folderMode: mode_t = 0o755, fresh: () -> String) throws(ByteSinkError) -> OwnedTemporary {
        for _ in 0..<8 {
            let path = fresh()
            // Registered before it exists, so that a signal in the next instant removes it too.
            let registration = TemporaryFiles.register(path, kind: kind)
            let descriptor: Int32
            if kind == .folder {
                guard mkdir(path, folderMode) == 0 else {
                    let code = errno
                    registration.map(TemporaryFiles.unregister)
                    throw ByteSinkError(path: path, operation: "mkdir", code: code)
                }
                descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            } else {
                descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            }
            guard descriptor >= 0 else {
                let code = errno
                if kind == .folder { rmdir(path) }
                registration.map(TemporaryFiles.unregister)
                throw ByteSinkError(path: path, operation: "open", code: code)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0, isSameFile(path, descriptor) {
                return OwnedTemporary(path: path, kind: kind, descriptor: descriptor, registration: registration)
            }
            unlockAndClose(descriptor)  // a sweep took it meanwhile: it removes it
            registration.map(TemporaryFiles.unregister)
        }
        throw ByteSinkError(path: fresh(), operation: "lock", code: EAGAIN)
    }

    /// The open, locked descriptor of a file (not a folder), to write its first bytes through.
    public var fileDescriptor: Int32 { descriptor }

    /// Copies the file at `source` into the owned file, or with `into`, into a new file beside it
    /// (registered with it, e.g. a copied `-wal`).
    public func fill(from source: String, into target: String? = nil) throws(ByteSinkError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ByteSinkError(path: source, operation: "open", code: errno) }
        defer { _ = systemClose(input) }
        var output = descriptor
        if let target {
            output = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard output >= 0 else { throw ByteSinkError(path: target, operation: "open", code: errno) }
            registerFile(target)
        }
        defer { if output != descriptor { _ = systemClose(output) } }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(input, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw ByteSinkError(path: source, operation: "read", code: errno) }
            if count == 0 { return }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { systemWrite(output, $0.baseAddress! + offset, count - offset) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw ByteSinkError(path: target ?? path, operation: "write", code: written < 0 ? errno : ENOSPC) }
                offset += written
            }
        }
    }

    /// Registers a file made inside the folder or beside the file, so that a signal removes it too
    /// (`remove()` removes it on every other path).
    public func registerFile(_ path: String, kind: TemporaryFiles.Kind = .file) {
        guard registrations[path] == nil, let registration = TemporaryFiles.register(path, kind: kind) else { return }
        registrations[path] = registration
    }

    /// Forgets the paths registered at or inside `folder`, which now holds something else (the
    /// old output a swap put there, maybe a link to a folder elsewhere): neither `remove()` nor a
    /// signal then unlinks anything through it; `remove()` removes it as the path's content.
    public func forgetFiles(inside folder: String) {
        for (file, registration) in registrations where file == folder || file.hasPrefix(folder + "/") {
            TemporaryFiles.unregister(registration)
            registrations[file] = nil
        }
    }

    /// Registers SQLite's journal files of a database file.
    public func registerDatabaseFiles() {
        for suffix in Self.databaseSuffixes { registerFile(path + suffix) }
    }

    /// The path is in place (renamed) or handed over: forgets it and releases the lock.
    public func release() {
        guard !released else { return }
        released = true
        for registration in registrations.values { TemporaryFiles.unregister(registration) }
        registrations.removeAll()
        unlockAndClose(descriptor)
        descriptor = -1
    }

    /// Removes the path (a folder with everything in it) and the files registered with it.
    public func remove() {
        guard !released else { return }
        for file in registrations.keys where file != path { unlink(file) }
        Self.removeTree(path)
        release()
    }

    // MARK: Sweeping

    /// Removes the leftovers of dead runs beside `destination`: each `<destination>.ferry-<UUID>.tmp`
    /// of `kind` with its SQLite journals, whose lock no process holds (`salvage` as in
    /// `sweep(folder:kind:owner:salvage:)`). Returns the paths removed.
    @discardableResult
    public static func sweep(beside destination: String, kind: TemporaryFiles.Kind,
                             salvage: (String) -> Bool = { _ in true }) -> [String] {
        let (folder, name) = FilePath.split(destination)
        let form = nameForm(beside: name)
        return sweep(folder: folder, kind: kind, owner: { entry in
            let owner = base(of: entry)
            return form.matches(owner) ? owner : nil
        }, salvage: salvage)
    }

    /// Removes, in `folder`, each entry whose name `owner` maps to the name of the file or folder
    /// that owns it (itself, or the database a journal belongs to) when that owner is of `kind`
    /// (never a link) and its lock is free; a journal whose owner is gone is removed too. Paths
    /// this process registered are left alone. `owner` must map only names of the exact form its
    /// caller's runs make (`TemporaryName`): a sweep removes nothing it did not make.
    ///
    /// `salvage` first sees each leftover, its lock held, to finish what its dead run began
    /// (`ExportReplacement`); false keeps the leftover.
    @discardableResult
    public static func sweep(folder: String, kind: TemporaryFiles.Kind, owner: (String) -> String?,
                             salvage: (String) -> Bool = { _ in true }) -> [String] {
        var removed: [String] = []
        for name in FilePath.entries(of: folder).sorted() {
            guard let ownerName = owner(name) else { continue }
            let path = folder + "/" + name
            let ownerPath = folder + "/" + ownerName
            guard !TemporaryFiles.isRegistered(ownerPath) else { continue }
            if ownerName != name {
                if access(ownerPath, F_OK) != 0, FileInfo.kind(atPath: path) == .regularFile, unlink(path) == 0 { removed.append(path) }
                continue
            }
            if removeIfUnowned(path, kind: kind, salvage: salvage) { removed.append(path) }
        }
        return removed
    }

    /// The name of the database a `-journal`/`-wal`/`-shm` file belongs to, or the name itself.
    public static func base(of name: String) -> String {
        for suffix in databaseSuffixes where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    /// Takes the lock of a leftover of `kind`; when free (its owner died) and `salvage` agrees,
    /// removes it with its journals.
    private static func removeIfUnowned(_ path: String, kind: TemporaryFiles.Kind, salvage: (String) -> Bool) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { unlockAndClose(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == (kind == .folder ? S_IFDIR : S_IFREG) else { return false }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, isSameFile(path, descriptor), salvage(path) else { return false }
        removeTree(path)
        for suffix in databaseSuffixes { unlink(path + suffix) }
        return true
    }

    private static func isSameFile(_ path: String, _ descriptor: Int32) -> Bool {
        var byPath = stat()
        var byDescriptor = stat()
        guard lstat(path, &byPath) == 0, fstat(descriptor, &byDescriptor) == 0 else { return false }
        return byPath.st_dev == byDescriptor.st_dev && byPath.st_ino == byDescriptor.st_ino
    }

    /// Removes a file, or a folder and everything below it (symbolic links themselves, never
    /// what they point to).
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            unlink(path)
            return
        }
        for name in FilePath.entries(of: path) { removeTree(path + "/" + name) }
        rmdir(path)
    }
}
