import Foundation
import Synchronization

/// A PostgreSQL server the tests start themselves, once per test process, stopped when it ends.
///
/// It listens on a Unix socket only, inside a fresh folder under `/tmp` (short enough for a
/// socket path) that belongs to the `postgres` user: the server refuses to run as root, so when
/// the tests run as root, `initdb` and `pg_ctl` run as `postgres` through `runuser`. Every test
/// takes a database of its own (`database(owner:)`).
///
/// Two roles: `postgres` (the superuser, trusted on the socket) and `passwordUser`, which must
/// give `password` (SCRAM), for tests of password handling.
///
/// Tests that need it are skipped, with `unavailableReason` as the message, when the PostgreSQL
/// binaries are not installed (`.ci/run` installs them).
public final class PostgresTestServer: Sendable {
    /// The role that must authenticate with a password.
    public static let passwordUser = "ferry_secret"
    /// Its password: tests check that it shows up in no output.
    public static let password = "Xy7-never-print-me-9Qz"

    /// The folder with `initdb`, `pg_ctl` and `psql`, or nil.
    public static let binaries: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map(String.init)
            + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
                .sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        return candidates.first { folder in
            ["initdb", "pg_ctl", "psql"].allSatisfy { FileManager.default.isExecutableFile(atPath: folder + "/" + $0) }
        }
    }()

    /// Why the tests cannot start a server here; nil when they can.
    public static let unavailableReason: String? = {
        guard binaries != nil else {
            return "PostgreSQL is not installed (initdb, pg_ctl and psql not found on PATH or in /usr/lib/postgresql/*/bin): "
                + "apt-get install postgresql libpq-dev, or run .ci/run"
        }
        if getuid() == 0, getpwnam("postgres") == nil {
            return "running as root and there is no postgres user to start the server as"
        }
        return nil
    }()

    public static var isAvailable: Bool { unavailableReason == nil }

    /// The folder holding the data directory, the socket and the log.
    public let folder: String

    private static let started = Mutex<PostgresTestServer?>(nil)

    /// The running server, started on first use.
    public static func running() throws -> PostgresTestServer {
        try started.withLock { server in
            if let server { return server }
            let made = try PostgresTestServer()
            server = made
            return made
        }
    }

    private init() throws {
        guard let binaries = Self.binaries, Self.isAvailable else {
            throw ServerError(message: Self.unavailableReason ?? "PostgreSQL is not available")
        }
        folder = "/tmp/ferry-pg-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try Self.giveToServerUser(folder)
        let data = folder + "/data"
        try Self.run(binaries + "/initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
                     asServerUser: true)
        // The password role first: its lines must come before the catch-all trust line.
        try Data("local all \(Self.passwordUser) scram-sha-256\nlocal all all trust\n".utf8)
            .write(to: URL(fileURLWithPath: data + "/pg_hba.conf"))
        try Self.giveToServerUser(data + "/pg_hba.conf")
        let options = "-k \(folder) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
        try Self.run(binaries + "/pg_ctl", ["-D", data, "-o", options, "-l", folder + "/server.log", "-w", "start"], asServerUser: true)
        try Self.stopWhenDone(pgCtl: binaries + "/pg_ctl", data: data, folder: folder)
        try psql("CREATE ROLE \(Self.passwordUser) LOGIN PASSWORD '\(Self.password)'")
    }

    /// A new, empty database, owned by `owner`.
    public func database(owner: String = "postgres") throws -> TestDatabase {
        let name = "ferry_test_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try psql("CREATE DATABASE \(name) OWNER \(owner)")
        return TestDatabase(name: name, uri: uri(database: name))
    }

    /// A database of the test server: its name, and its URI for `postgres`.
    public struct TestDatabase: Sendable {
        public let name: String
        public let uri: String
    }

    /// The connection URI of a database on this server, as `user` (with `password` when given).
    public func uri(database: String, user: String = "postgres", password: String? = nil) -> String {
        let credentials = user + (password.map { ":" + $0 } ?? "")
        return "postgresql://\(credentials)@/\(database)?host=\(folder)"
    }

    /// Runs SQL through `psql` as `postgres`; returns its output (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        guard let binaries = Self.binaries else { throw ServerError(message: "no psql") }
        return try Self.run(binaries + "/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", folder, "-U", "postgres",
                                                 "-d", database, "-c", sql], asServerUser: false)
    }

    public struct ServerError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Runs a program (as `postgres` when `asServerUser` and this process is root) and waits for
    /// it; returns its output.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], asServerUser: Bool) throws -> String {
        let user = asServerUser && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []
        let output = "/tmp/ferry-pg-output-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: output) }
        let pid = try spawn(["/bin/sh", "-c", "cd /tmp && exec \"$@\"", "sh"] + user + [program] + arguments, output: output)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let text = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0 else {
            throw ServerError(message: "\(program) \(arguments.joined(separator: " ")) failed (status \(status)): \(text)")
        }
        return text
    }

    /// Starts a command with standard output and error going to `output`, every other descriptor
    /// closed. Not Foundation's `Process`: it learns that a child ended when a socket the child
    /// inherited closes, and the server `pg_ctl` leaves running would hold it open forever.
    private static func spawn(_ command: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        for descriptor in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap({ Int32($0) }) ?? []
        where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let arguments = command.map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, arguments, environ)
        guard spawned == 0 else { throw ServerError(message: "cannot run \(command[0]): error \(spawned)") }
        return pid
    }

    /// Hands a path to the `postgres` user (when running as root), with access for it alone.
    private static func giveToServerUser(_ path: String) throws {
        guard getuid() == 0 else { return }
        try FileManager.default.setAttributes([.ownerAccountName: "postgres", .groupOwnerAccountName: "postgres",
                                               .posixPermissions: 0o700], ofItemAtPath: path)
    }

    /// Starts a watchdog that stops the server and removes its folder once this process has
    /// ended, however it ends (a crash or a killed test run included).
    private static func stopWhenDone(pgCtl: String, data: String, folder: String) throws {
        let user = getuid() == 0 ? "/usr/sbin/runuser -u postgres -- " : ""
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; cd /tmp; "
            + "\(user)\(pgCtl) -D '\(data)' -m immediate stop; sleep 1; rm -rf '\(folder)'"
        _ = try spawn(["/bin/sh", "-c", script], output: "/dev/null")
    }
}
