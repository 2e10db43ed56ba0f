import CLibPQ

/// Writes the rows of a `COPY … FROM STDIN (FORMAT binary)` (from `PostgresConnection.copyIn`):
/// each row is `startRow(fieldCount:)` followed by exactly that many fields, in the table's
/// column order of the COPY statement. Bytes are buffered and sent in blocks of about 1 MB, on a
/// thread of their own (`CopyDataSender`) while the next block is encoded.
///
/// `finish()` ends the COPY and returns the rows the server took; `abort(_:)` (or dropping the
/// writer) ends it with an error, so the server keeps none of its rows.
public final class CopyInWriter {
    private let connection: PostgresConnection
    private let sender: CopyDataSender
    private var buffer: [UInt8] = []
    private var finished = false
    private static let blockSize = 1 << 20
    /// `PGCOPY\n\377\r\n\0`, flags 0, no header extension.
    private static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    init(connection: PostgresConnection) {
        self.connection = connection
        sender = CopyDataSender(connection: connection)
        buffer.reserveCapacity(Self.blockSize + 64 * 1024)
        buffer += Self.header
    }

    deinit {
        if !finished { abort("the COPY was not finished") }
    }

    /// Starts a row of `fieldCount` fields (sending the buffer when it is full).
    public func startRow(fieldCount: Int) throws(PostgresError) {
        if buffer.count >= Self.blockSize { try send() }
        PostgresBinary.append(Int16(fieldCount), to: &buffer)
    }

    public func appendNull() {
        PostgresBinary.append(Int32(-1), to: &buffer)
    }

    public func append(int16 value: Int16) { appendFixed(value) }
    public func append(int32 value: Int32) { appendFixed(value) }
    public func append(int64 value: Int64) { appendFixed(value) }
    public func append(float32 value: Float) { appendFixed(value.bitPattern) }
    public func append(float64 value: Double) { appendFixed(value.bitPattern) }

    public func append(bool value: Bool) {
        PostgresBinary.append(Int32(1), to: &buffer)
        buffer.append(value ? 1 : 0)
    }

    /// A `timestamptz`: microseconds since 2000-01-01 00:00:00 UTC.
    public func append(timestamp microseconds: Int64) { appendFixed(microseconds) }

    /// A field whose binary form is these bytes: `bytea`, a `uuid`'s 16 bytes, an encoded `numeric`.
    public func append(bytes: [UInt8]) {
        bytes.withUnsafeBytes { append(bytes: $0) }
    }

    /// A field whose binary form is these bytes, lent (a value in SQLite's buffer, say). Not
    /// generic: a generic append called from another module copied byte by byte.
    public func append(bytes: UnsafeRawBufferPointer) {
        PostgresBinary.append(Int32(bytes.count), to: &buffer)
        buffer.append(contentsOf: bytes)
    }

    /// A `text` field (PostgreSQL refuses text holding a NUL character).
    public func append(text: String) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Ends the COPY; returns the rows the server stored.
    @discardableResult
    public func finish() throws(PostgresError) -> Int64 {
        buffer += [0xFF, 0xFF]
        try send()
        do { try sender.drain() } catch { throw fail(error) }
        finished = true
        guard PQputCopyEnd(connection.handle, nil) == 1 else {
            let error = connection.failure()
            connection.drainResults()
            throw error
        }
        let result = try connection.checked(PQgetResult(connection.handle), expecting: [PGRES_COMMAND_OK])
        let rows = Int64(String(cString: PQcmdTuples(result))) ?? 0
        PQclear(result)
        connection.drainResults()
        return rows
    }

    /// Ends the COPY with an error: the server keeps none of its rows (and the transaction it
    /// ran in is failed).
    public func abort(_ reason: String) {
        guard !finished else { return }
        finished = true
        try? sender.drain()
        _ = PQputCopyEnd(connection.handle, reason)
        connection.drainResults()
    }

    private func appendFixed<Integer: FixedWidthInteger>(_ value: Integer) {
        PostgresBinary.append(Int32(MemoryLayout<Integer>.size), to: &buffer)
        PostgresBinary.append(value, to: &buffer)
    }

    /// Hands the buffer to the sender and starts the next one.
    private func send() throws(PostgresError) {
        let block = buffer
        buffer = sender.emptyBuffer(capacity: Self.blockSize + 64 * 1024)
        do { try sender.send(block) } catch { throw fail(error) }
    }

    /// Ends the COPY after a block could not be sent; returns the error to throw.
    private func fail(_ error: PostgresError) -> PostgresError {
        finished = true
        try? sender.drain()
        connection.drainResults()
        return error
    }
}
