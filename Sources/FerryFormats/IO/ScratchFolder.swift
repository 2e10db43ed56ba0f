import FoundationEssentials

/// A private folder in the system's temporary directory for what a run only needs while it runs
/// (a snapshot of a store with live journals, the sources migrated again to compare with, a
/// store on its way to PostgreSQL), named `ferry-<purpose>-<UUID>.tmp`.
///
/// It is an `OwnedTemporary` folder: locked by its run, removed with everything in it by
/// `remove()` (or when it is released from memory) on every path out of the run, and on SIGINT,
/// SIGTERM or SIGHUP together with the files registered in it (`file(_:)`, `database(_:)`).
/// What a killed run left is removed when the next run makes a scratch folder: any folder named
/// `ferry-<purpose>-<UUID>.tmp` there whose lock no process holds (nothing else, not a user's
/// `ferry-notes.tmp`).
public final class ScratchFolder {
    /// The folder's path.
    public var path: String { owned.path }
    private let owned: OwnedTemporary

    private init(owned: OwnedTemporary) {
        self.owned = owned
    }

    /// Makes a new scratch folder (after sweeping what dead runs left); `purpose` names it.
    public static func make(purpose: String) throws(ByteSinkError) -> ScratchFolder {
        let parent = systemTemporaryDirectory
        OwnedTemporary.sweep(folder: parent, kind: .folder) { isScratchName($0) ? $0 : nil }
        // Private (0700): it holds copies of stores and links to their files, for this run alone.
        let owned = try OwnedTemporary.create(kind: .folder, folderMode: 0o700) { parent + "/" + name(purpose: purpose).fresh() }
        return ScratchFolder(owned: owned)
    }

    /// The path of a file `name` in the folder, registered so that a signal removes it.
    public func file(_ name: String) -> String {
        let file = path + "/" + name
        owned.registerFile(file)
        return file
    }

    /// The path of a SQLite database `name` in the folder, with its journals registered too.
    public func database(_ name: String) -> String {
        let file = self.file(name)
        for suffix in OwnedTemporary.databaseSuffixes { owned.registerFile(file + suffix) }
        return file
    }

    /// Removes the folder and everything in it.
    public func remove() {
        owned.remove()
    }

    static let namePrefix = "ferry-"

    /// `ferry-<purpose>-<UUID>.tmp`.
    private static func name(purpose: String) -> TemporaryName {
        TemporaryName(prefix: namePrefix + purpose + "-", suffix: OwnedTemporary.suffix)
    }

    /// Whether `name` is a scratch folder's, of any purpose (lower-case letters and `-`).
    static func isScratchName(_ name: String) -> Bool {
        guard let start = TemporaryName.prefix(of: name, before: OwnedTemporary.suffix), start.hasPrefix(namePrefix), start.hasSuffix("-") else {
            return false
        }
        let purpose = start.dropFirst(namePrefix.count).dropLast()
        return !purpose.isEmpty && purpose.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// `TMPDIR`, or `/tmp`, without a trailing slash: where scratch folders are made.
    public static var systemTemporaryDirectory: String {
        FilePath.withoutTrailingSlashes(FileManager.default.temporaryDirectory.path)
    }
}
