import Foundation
import Testing

/// A child run (of `ferry`, or of `strace` running it) with SIGINT, SIGTERM, SIGHUP and SIGPIPE at
/// their default actions and unblocked (a test runner's thread may ignore or block them, and both
/// survive exec; `ferry` leaves an ignored signal ignored), its output thrown away.
struct ChildProcess {
    let pid: pid_t

    init(_ arguments: [String]) throws {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [1, 2] { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0) }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        try #require(posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ) == 0)
        self.pid = pid
    }

    /// Waits for the end; returns the raw wait status.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return status
    }

    /// Whether it is still running.
    var isRunning: Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }
}

/// Lands a signal in a window of microseconds: runs the built `ferry` under `strace`, which sends
/// the signal right after a given system call (`-e inject=CALL:signal=SIG:when=N`), on a given
/// path only when one is named (`-P PATH`).
enum SignalInjection {
    private static let strace = "/usr/bin/strace"

    /// Whether `strace` is there and may trace here (it needs `ptrace`).
    static let available: Bool = {
        guard FileManager.default.isExecutableFile(atPath: strace) else { return false }
        return (try? ChildProcess([strace, "-f", "-o", "/dev/null", "-e", "trace=getpid", "/bin/true"]).wait()) == 0
    }()

    /// Runs `ferry arguments` with `signal` sent after the `when`-th call of `call` (on `path`,
    /// when given); returns the raw wait status of `strace`, which ends as `ferry` did.
    static func run(_ arguments: [String], signal: String, after call: String, on path: String? = nil, when: Int = 1) throws -> Int32 {
        let filter = path.map { ["-P", $0] } ?? []
        let child = try ChildProcess([strace, "-f", "-o", "/dev/null"] + filter
            + ["-e", "trace=\(call)", "-e", "inject=\(call):signal=\(signal):when=\(when)", FerryProcess.binary] + arguments)
        return child.wait()
    }
}

/// The system calls a `ferry` run makes, as `strace -f -y` writes them (a descriptor followed by
/// the path it is open on: `fsync(7</tmp/x/out>) = 0`), one line each.
enum SyscallTrace {
    /// Runs `ferry arguments` tracing `calls` (`fsync,unlink`); returns the trace's lines.
    static func run(_ arguments: [String], calls: String, in folder: String) throws -> [String] {
        let trace = folder + "/strace.out"
        let child = try ChildProcess(["/usr/bin/strace", "-f", "-y", "-o", trace, "-e", "trace=\(calls)", FerryProcess.binary] + arguments)
        _ = child.wait()
        defer { unlink(trace) }
        return try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
