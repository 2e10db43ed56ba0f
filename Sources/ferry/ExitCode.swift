import FerryFormats

/// The exit codes of `ferry`: one table for every verb, shown by `ferry --help` and in the README.
/// Each verb declares which of them it uses and what each means for it (`Command.exitCodes`), and
/// its `--help` lists them from that declaration.
enum ExitCode: Int32, CaseIterable {
    /// Everything was read, written and verified.
    case success = 0
    /// The job finished, but some records were rejected or links were not kept (see the summary and
    /// the reject log), or a store it read fails `ferry verify`'s relationship checks.
    case rejects = 1
    /// The command was called wrongly (unknown verb or option, missing argument, a value out of range).
    case usage = 2
    /// An input (model, source file, store, backup) could not be read or is invalid, or names
    /// something the model does not have (entity, attribute, version).
    case badInput = 3
    /// The destination could not be written; nothing was left behind.
    case destination = 4
    /// Verification found a difference between sources and destination.
    case verificationFailed = 5
    /// The run stopped at the reject limit (`--max-errors`); nothing was written.
    case rejectLimit = 6
    /// Another run holds the lock of the destination (a backup folder); nothing was done.
    case locked = 7

    /// The code's meaning in the table of `ferry --help` and the README.
    var meaning: String {
        switch self {
        case .success: "everything was read, written and verified"
        case .rejects: "the job finished, but some records were rejected or links were not kept (the destination holds the rest), or a store it read fails `ferry verify`'s relationship checks (each is named), or (`export`, `migrate`) they could not run on the state read (why is said)"
        case .usage: "usage error: unknown verb or option, missing argument, value out of range"
        case .badInput: "an input (model, source file, store, backup) cannot be read or is invalid, or names what the model lacks"
        case .destination: "the destination could not be written; nothing was left behind"
        case .verificationFailed: "verification failed: `ferry verify`, the check after a job, or a second count of the sources (plain SQL for a store, a census for a file) that differs from what was read"
        case .rejectLimit: "stopped at the reject limit (`--max-errors`); nothing was written"
        case .locked: "locked: another run holds the destination or backup folder"
        }
    }
}

/// What one exit code means for one verb.
struct ExitCodeUse {
    let code: ExitCode
    let meaning: String

    init(_ code: ExitCode, _ meaning: String) {
        self.code = code
        self.meaning = meaning
    }

    /// Exit code 2, which every verb has.
    static let usage = ExitCodeUse(.usage, "usage error")

    /// The `exit codes:` section of a verb's help.
    static func helpSection(_ uses: [ExitCodeUse]) -> String {
        let rows = ([ExitCodeUse.usage] + uses).sorted { $0.code.rawValue < $1.code.rawValue }.map { [String($0.code.rawValue), $0.meaning] }
        return "exit codes:\n" + TextTable.render(rows, indent: "  ")
    }
}
