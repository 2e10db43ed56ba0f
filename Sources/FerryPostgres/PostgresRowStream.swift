import CLibPQ

/// The rows of one query in libpq's single-row mode: one result per row, read as it arrives, so
/// memory holds one row however large the result.
///
/// The connection runs nothing else until `next()` has returned nil (or thrown), or the stream
/// is dropped: then the query is cancelled and what is left of it read and dropped.
public final class PostgresRowStream {
    private let connection: PostgresConnection
    private var finished = false

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    deinit {
        guard !finished else { return }
        if let cancel = PQgetCancel(connection.handle) {
            var buffer = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &buffer, Int32(buffer.count))
            PQfreeCancel(cancel)
        }
        connection.drainResults()
    }

    /// The next row, or nil after the last one.
    public func next() throws(PostgresError) -> PostgresRow? {
        guard !finished else { return nil }
        let result = PQgetResult(connection.handle)
        let checked: OpaquePointer
        do {
            checked = try connection.checked(result, expecting: [PGRES_SINGLE_TUPLE, PGRES_TUPLES_OK])
        } catch {
            finished = true
            throw error
        }
        guard PQresultStatus(checked) == PGRES_SINGLE_TUPLE else {
            PQclear(checked)
            finished = true
            connection.drainResults()
            return nil
        }
        return PostgresRow(result: checked)
    }
}

/// One row of a binary result. Fields are read by position with the accessors of
/// `PostgresRow+Values.swift`, as the type the query selected them as.
public final class PostgresRow {
    private let result: OpaquePointer

    init(result: OpaquePointer) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    public func isNull(_ column: Int) -> Bool {
        PQgetisnull(result, 0, Int32(column)) == 1
    }

    /// The field's bytes in binary format (empty for NULL), valid inside `body` only.
    public func withBytes<Result>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws(PostgresError) -> Result) throws(PostgresError) -> Result {
        let length = Int(PQgetlength(result, 0, Int32(column)))
        guard let start = PQgetvalue(result, 0, Int32(column)) else { return try body(UnsafeRawBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeRawBufferPointer(start: start, count: length))
    }
}
