import CLibPQ

/// Writes the rows of a `COPY … FROM STDIN (FORMAT binary)` (from `PostgresConnection.copyIn`):
/// each row is `startRow(fieldCount:)` followed by exactly that many fields, in the table's
/// column order of the COPY statement. Bytes are buffered and sent in blocks of up to 1 MB, on a
/// thread of their own (`CopyDataSender`) while the next block is encoded.
///
/// `finish()` ends the COPY and returns the rows the server took; `abort(_:)` (or dropping the
/// writer) ends it with an error, so the server keeps none of its rows.
public final class CopyInWriter {
    private let connection: PostgresConnection
    private let sender: CopyDataSender
    /// The block being filled.
    private var block: CopyBlock
    /// Where the next byte of the block goes and how much room it has, reached through a pointer:
    /// a stored property of a class is checked for exclusive access at run time on every write,
    /// which cost more than the bytes written (a row is a dozen small fields).
    private let fill: UnsafeMutablePointer<Fill>
    private var finished = false
    private static let blockSize = 1 << 20
    /// How full a block is sent: small at first, so that the server starts on a COPY's rows
    /// while the next are encoded (a 1 MB first block kept it waiting about 5 ms per store),
    /// doubling with each block up to `blockSize`.
    private var sendAt = 64 * 1024
    /// `PGCOPY\n\377\r\n\0`, flags 0, no header extension.
    private static let header: [UInt8] = Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]

    /// The block's memory as the field writers use it.
    private struct Fill {
        var base: UnsafeMutableRawPointer
        var count: Int
        var capacity: Int
    }

    init(connection: PostgresConnection) {
        self.connection = connection
        sender = CopyDataSender(connection: connection)
        block = sender.emptyBlock(capacity: Self.blockSize + 64 * 1024)
        fill = .allocate(capacity: 1)
        fill.initialize(to: Fill(base: block.base, count: 0, capacity: block.capacity))
        Self.header.withUnsafeBytes { put($0) }
    }

    deinit {
        if !finished { abort("the COPY was not finished") }
        connection.copyBlocks.give(block)
        fill.deallocate()
    }

    /// Starts a row of `fieldCount` fields (sending the block when it is full).
    public func startRow(fieldCount: Int) throws(PostgresError) {
        if fill.pointee.count >= sendAt { try send() }
        reserve(2)
        put(Int16(fieldCount))
    }

    public func appendNull() {
        reserve(4)
        put(Int32(-1))
    }

    public func append(int16 value: Int16) { appendFixed(value) }
    public func append(int32 value: Int32) { appendFixed(value) }
    public func append(int64 value: Int64) { appendFixed(value) }
    public func append(float32 value: Float) { appendFixed(value.bitPattern) }
    public func append(float64 value: Double) { appendFixed(value.bitPattern) }

    public func append(bool value: Bool) {
        reserve(5)
        put(Int32(1))
        put(UInt8(value ? 1 : 0))
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
        reserve(4 + bytes.count)
        put(Int32(bytes.count))
        put(bytes)
    }

    /// A `text` field (PostgreSQL refuses text holding a NUL character).
    public func append(text: String) {
        var text = text
        text.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Ends the COPY; returns the rows the server stored.
    @discardableResult
    public func finish() throws(PostgresError) -> Int64 {
        reserve(2)
        put(Int16(-1))
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
        reserve(4 + MemoryLayout<Integer>.size)
        put(Int32(MemoryLayout<Integer>.size))
        put(value)
    }

    /// Makes room for `bytes` more bytes in the block (a field larger than the room left).
    @inline(__always)
    private func reserve(_ bytes: Int) {
        if fill.pointee.count + bytes > fill.pointee.capacity { grow(bytes) }
    }

    private func grow(_ bytes: Int) {
        block.count = fill.pointee.count
        block.reserve(block.count + bytes)
        fill.pointee.base = block.base
        fill.pointee.capacity = block.capacity
    }

    /// Writes an integer big-endian (room reserved).
    @inline(__always)
    private func put<Integer: FixedWidthInteger>(_ value: Integer) {
        (fill.pointee.base + fill.pointee.count).storeBytes(of: value.bigEndian, as: Integer.self)
        fill.pointee.count += MemoryLayout<Integer>.size
    }

    /// Writes bytes (room reserved).
    @inline(__always)
    private func put(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (fill.pointee.base + fill.pointee.count).copyMemory(from: source, byteCount: bytes.count)
        fill.pointee.count += bytes.count
    }

    /// Hands the block to the sender and starts the next one.
    private func send() throws(PostgresError) {
        block.count = fill.pointee.count
        sendAt = min(sendAt * 2, Self.blockSize)
        let full = block
        block = sender.emptyBlock(capacity: Self.blockSize + 64 * 1024)
        fill.pointee = Fill(base: block.base, count: 0, capacity: block.capacity)
        do { try sender.send(full) } catch { throw fail(error) }
    }

    /// Ends the COPY after a block could not be sent; returns the error to throw.
    private func fail(_ error: PostgresError) -> PostgresError {
        finished = true
        try? sender.drain()
        connection.drainResults()
        return error
    }
}
