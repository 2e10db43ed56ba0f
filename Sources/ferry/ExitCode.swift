/// The exit codes of `ferry`, documented in the README.
enum ExitCode: Int32 {
    /// Everything was read, written and verified.
    case success = 0
    /// The job finished, but some records were rejected (see the summary and the reject log).
    case rejects = 1
    /// The command was called wrongly (unknown verb or option, missing argument).
    case usage = 2
    /// An input (model, source file or store) could not be read or is invalid.
    case badInput = 3
    /// The destination could not be written; nothing was left behind.
    case destination = 4
    /// Verification found a difference between sources and destination.
    case verificationFailed = 5
    /// Another run holds the destination's lock (a backup folder); nothing was written.
    case locked = 7
}
