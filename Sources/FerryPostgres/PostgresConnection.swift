import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to a PostgreSQL server, used by one thread at a time (not `Sendable`; give
/// each worker its own).
///
/// Statements take their values as parameters (`$1`, `$2`, … sent apart from the SQL, in text
/// form); rows go in with `copyIn(_:)` in COPY's binary format and come out with `rows(_:_:)` in
/// binary form, one at a time. SQL text built by callers holds only identifiers
/// (`PostgresIdentifier`) and keywords. Server notices are not printed.
public final class PostgresConnection {
    public let target: ConnectionTarget
    let handle: OpaquePointer
    /// The target's passwords and the one libpq used (from the password file, say).
    let secrets: [String]
    /// Whether a row stream or COPY is under way (no other statement may run meanwhile).
    var isBusy = false
    /// COPY blocks kept from one COPY to the next.
    let copyBlocks = CopyBlockPool()

    /// Connects; the server's name, user and database as the target and the environment give them.
    public init(_ target: ConnectionTarget) throws(PostgresError) {
        self.target = target
        let keywords = ["dbname", "fallback_application_name", "client_encoding"]
        let values = [target.connectionString, "ferry", "UTF8"]
        let connection = CStringArray(keywords).withPointers { keywords in
            CStringArray(values).withPointers { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let connection else { throw .connection(target: target.description, reason: "libpq is out of memory") }
        var secrets = target.secrets
        if let used = PQpass(connection) { secrets.append(String(cString: used)) }
        self.secrets = secrets.filter { !$0.isEmpty }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines
            PQfinish(connection)
            throw .connection(target: target.description, reason: ConnectionTarget.scrub(reason, of: secrets))
        }
        handle = connection
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection can run the next statement: still connected, no row stream or
    /// COPY under way, and outside any transaction.
    public var isIdle: Bool {
        !isBusy && PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, … (nil is NULL) and returns its
    /// rows, each column as text (nil for NULL). For small results: counts, catalog rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [[String?]] {
        try checkIdle()
        let result = withParameters(parameters) { count, values in
            PQexecParams(handle, sql, count, nil, values, nil, nil, 0)
        }
        let owned = try checked(result, expecting: [PGRES_COMMAND_OK, PGRES_TUPLES_OK])
        defer { PQclear(owned) }
        return (0..<PQntuples(owned)).map { row in
            (0..<PQnfields(owned)).map { column in
                PQgetisnull(owned, row, column) == 1 ? nil : String(cString: PQgetvalue(owned, row, column))
            }
        }
    }

    /// Runs a query with `parameters` and streams its rows in binary form, one at a time. The
    /// connection runs nothing else until the stream has ended (or been dropped).
    public func rows(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> PostgresRowStream {
        try checkIdle()
        let sent = withParameters(parameters) { count, values in
            PQsendQueryParams(handle, sql, count, nil, values, nil, nil, 1)
        }
        guard sent == 1 else { throw failure() }
        guard PQsetSingleRowMode(handle) == 1 else {
            drainResults()
            throw .protocolFailure(reason: "the server did not accept single-row mode")
        }
        isBusy = true
        return PostgresRowStream(connection: self)
    }

    /// Starts `COPY … FROM STDIN (FORMAT binary)`; rows are then written with the returned
    /// writer, which must be finished or aborted before anything else runs.
    public func copyIn(_ sql: String) throws(PostgresError) -> CopyInWriter {
        try checkIdle()
        let result = PQexec(handle, sql)
        PQclear(try checked(result, expecting: [PGRES_COPY_IN]))
        isBusy = true
        return CopyInWriter(connection: self)
    }

    // MARK: Internals shared with the stream and the COPY writer

    /// `result` when its status is one of `expected`; otherwise the error it carries (the result
    /// is cleared and any further results are read and dropped).
    func checked(_ result: OpaquePointer?, expecting expected: [ExecStatusType]) throws(PostgresError) -> OpaquePointer {
        guard let result else { throw failure() }
        let status = PQresultStatus(result)
        if expected.contains(status) { return result }
        let error = serverError(result) ?? .protocolFailure(reason: "unexpected result \(String(cString: PQresStatus(status)))")
        PQclear(result)
        drainResults()
        throw error
    }

    /// The server's error in a result, scrubbed; nil when the result is not an error.
    func serverError(_ result: OpaquePointer) -> PostgresError? {
        guard PQresultStatus(result) == PGRES_FATAL_ERROR else { return nil }
        func field(_ code: UInt8) -> String? {
            PQresultErrorField(result, Int32(code)).map { scrub(String(cString: $0)) }
        }
        guard let message = field(UInt8(ascii: "M")) else {
            return .protocolFailure(reason: scrub(String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines))
        }
        return .server(.init(sqlState: field(UInt8(ascii: "C")) ?? "XX000", message: message,
                             detail: field(UInt8(ascii: "D")), hint: field(UInt8(ascii: "H"))))
    }

    /// The connection's last error, as a protocol failure.
    func failure() -> PostgresError {
        .protocolFailure(reason: scrub(String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines))
    }

    /// Reads and drops every result still pending.
    func drainResults() {
        while let result = PQgetResult(handle) { PQclear(result) }
        isBusy = false
    }

    func scrub(_ message: String) -> String {
        ConnectionTarget.scrub(message, of: secrets)
    }

    private func checkIdle() throws(PostgresError) {
        if isBusy { throw .protocolFailure(reason: "a row stream or COPY is still under way on this connection") }
    }

    private func withParameters<Result>(_ parameters: [String?],
                                        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        CStringArray(parameters).withPointers { values in body(Int32(parameters.count), values) }
    }
}

/// C strings for libpq's `const char * const *` arguments, freed after use.
private struct CStringArray {
    let strings: [String?]

    init(_ strings: [String?]) { self.strings = strings }

    func withPointers<Result>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Result) -> Result {
        let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
        defer { for copy in copies { free(copy) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
