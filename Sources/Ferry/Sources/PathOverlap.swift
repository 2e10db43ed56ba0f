import FerryFormats

/// Finds an output of a job that is one of its inputs, or lies inside an input that is a folder
/// (a model bundle, a backup): the same file by device and inode, so a link or another spelling
/// of the path is found too. Writing it would truncate or replace the input before (or while) it
/// is read, or change a bundle that later runs read (a reject log written over a model's
/// `contents`, a store over a mapping file), so jobs refuse such a run before they open anything.
public enum PathOverlap {
    /// The first (output, input) pair where the output is the input or lies inside it, if any.
    /// `-` (standard output) is no file.
    public static func first(outputs: [String?], inputs: [String]) -> (output: String, input: String)? {
        let inputFiles = inputs.compactMap { path in FileInfo.identity(atPath: path).map { (path, $0) } }
        for case let output? in outputs where output != "-" {
            let places = (FileInfo.identity(atPath: output).map { [$0] } ?? []) + folders(holding: output)
            if let (input, _) = inputFiles.first(where: { places.contains($0.1) }) { return (output, input) }
            if let input = inputs.first(where: { isCompanion(output, of: $0) }) { return (output, input) }
        }
        return nil
    }

    /// What a run says of an output that is an input or lies inside one (`first`), before
    /// `; nothing was …`.
    public static func text(output: String, input: String) -> String {
        output == input ? "\(output) is both an input and an output of this run"
            : "\(output) is, or lies inside, the input \(input) (by another path or a link)"
    }

    /// The first output of `outputs` that another one names too (by another spelling of the
    /// path, or a link to the same file, there or not yet), or that is one of SQLite's files
    /// beside another (the store's `-journal`, which SQLite deletes): writing both would leave one
    /// of them holding the other, or lose it (a reject log written over the store). `-`
    /// (standard output) is no file.
    static func sharedOutput(_ outputs: [String?]) -> String? {
        let files = outputs.compactMap { $0 }.filter { $0 != "-" }.map { (given: $0, resolved: linkEnd(of: $0)) }
        for (index, output) in files.enumerated() {
            for earlier in files[..<index] where isSameFile(earlier.resolved, output.resolved)
                || isCompanion(output.resolved, of: earlier.resolved) || isCompanion(earlier.resolved, of: output.resolved) {
                return output.given
            }
        }
        return nil
    }

    /// Where `path`'s symbolic links lead, followed by their text (up to 16), so that a link to a
    /// file not made yet names that file.
    private static func linkEnd(of path: String) -> String {
        var current = path
        for _ in 0..<16 {
            guard FileInfo.kind(atPath: current) == .symbolicLink, let target = FileInfo.linkText(of: current) else { break }
            current = target.hasPrefix("/") ? target : FilePath.split(current).folder + "/" + target
        }
        return current
    }

    /// Whether two paths name one file: the same file where both are there, else the same name in
    /// the same folder (or the same spelling, where the folder is not there yet).
    private static func isSameFile(_ first: String, _ second: String) -> Bool {
        if let one = FileInfo.identity(atPath: first), let other = FileInfo.identity(atPath: second) { return one == other }
        let (one, other) = (FilePath.split(first), FilePath.split(second))
        guard one.name == other.name else { return false }
        guard let folder = FileInfo.identity(atPath: one.folder) else { return one.folder == other.folder }
        return FileInfo.identity(atPath: other.folder) == folder
    }

    /// Whether `output` names one of SQLite's files beside the database `input` (its `-wal`,
    /// `-shm` or `-journal`), there or not yet: a store written there would replace the commits a
    /// source keeps in its `-wal`, or be read as one.
    private static func isCompanion(_ output: String, of input: String) -> Bool {
        let (folder, name) = FilePath.split(output)
        let (inputFolder, inputName) = FilePath.split(FileInfo.linkTarget(of: input))
        guard ["-wal", "-shm", "-journal"].contains(where: { inputName + $0 == name }),
              let here = FileInfo.identity(atPath: folder) else { return false }
        return FileInfo.identity(atPath: inputFolder) == here
    }

    /// The identities of the folders that hold `path`, from its own folder up to the root, as
    /// the file system resolves them (`..` of each, so links on the way are followed); folders
    /// not made yet are skipped up to the first that is there.
    private static func folders(holding path: String) -> [[UInt64]] {
        var folder = FilePath.split(path).folder
        while FileInfo.identity(atPath: folder) == nil, folder != ".", folder != "/" { folder = FilePath.split(folder).folder }
        var found: [[UInt64]] = []
        while found.count < 256, let identity = FileInfo.identity(atPath: folder), !found.contains(identity) {
            found.append(identity)
            folder += "/.."
        }
        return found
    }
}
