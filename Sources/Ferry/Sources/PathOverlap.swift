import FerryFormats

/// Finds an output of a job that is one of its inputs: the same file by device and inode, so a
/// link or another spelling of the path is found too. Writing it would truncate or replace the
/// input before (or while) it is read, so jobs refuse such a run before they open anything.
enum PathOverlap {
    /// The first (output, input) pair that names one file, if any. Outputs that do not exist yet
    /// cannot be an input.
    static func first(outputs: [String?], inputs: [String]) -> (output: String, input: String)? {
        let inputFiles = inputs.compactMap { path in FileInfo.identity(atPath: path).map { (path, $0) } }
        for case let output? in outputs {
            guard let file = FileInfo.identity(atPath: output) else { continue }
            if let (input, _) = inputFiles.first(where: { $0.1 == file }) { return (output, input) }
        }
        return nil
    }
}
