/// An error about one file that can say what is wrong without naming the file. A message that
/// wraps it and names the file itself takes its `reason` (`ErrorText.reason(of:at:)`), so the
/// whole message names the path once: `old/Upload.sqlite: cannot open: No such file or
/// directory`, not the path again at every level.
public protocol FileError: Error, CustomStringConvertible {
    /// The file the error is about, as it was named.
    var path: String { get }
    /// What is wrong with the file, without its path.
    var reason: String { get }
}

/// The text of an error inside a message about a file.
public enum ErrorText {
    /// The text of `error` for a message that names `path` already: only its reason when it is
    /// a `FileError` about that same path, its whole description otherwise.
    public static func reason(of error: any Error, at path: String) -> String {
        if let error = error as? any FileError, error.path == path { return error.reason }
        return "\(error)"
    }
}
