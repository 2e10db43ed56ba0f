import CSQLite

/// Binds the values of one row to a statement without SQLite copying them: text and blob bytes
/// are first copied into a buffer this binding owns, then bound with `SQLITE_STATIC`.
///
/// SQLite frees the copy it makes of a `SQLITE_TRANSIENT` value when the parameter is bound
/// again, so every text or blob of every row would cost an allocation and a free. Here the
/// buffer is reused: it holds the bytes of the latest row, which is all a statement reads when it
/// steps. The bindings point into the buffer until they are bound again, so the statement must
/// not be stepped with a row bound by an earlier call once `bind` is called again (each row binds
/// every parameter it takes before stepping), and not after the binding is released.
final class StaticRowBinding {
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int

    init() {
        capacity = 4096
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
    }

    /// Binds `values` to consecutive parameters from `first` (counting from 1); returns the first
    /// status that is not `SQLITE_OK`, or `SQLITE_OK`.
    func bind(_ values: [StoreValue], from first: Int32, to statement: OpaquePointer) -> Int32 {
        reserve(values.reduce(0) { $0 + Self.byteCount(of: $1) })
        var offset = 0
        var index = first
        for value in values {
            let status: Int32
            switch value {
            case .null:
                status = sqlite3_bind_null(statement, index)
            case .integer(let number):
                status = sqlite3_bind_int64(statement, index, number)
            case .real(let number):
                status = sqlite3_bind_double(statement, index, number)
            case .text(var text):
                let start = offset
                offset = text.withUTF8 { copy(UnsafeRawBufferPointer($0), at: offset) }
                status = bindText(from: start, to: offset, at: index, to: statement)
            case .utf8(let bytes):
                let start = offset
                offset = bytes.withUnsafeBytes { copy($0, at: offset) }
                status = bindText(from: start, to: offset, at: index, to: statement)
            case .blob(let bytes):
                let start = offset
                offset = bytes.withUnsafeBytes { copy($0, at: offset) }
                status = offset == start
                    ? sqlite3_bind_zeroblob(statement, index, 0)
                    : sqlite3_bind_blob64(statement, index, address(start), UInt64(offset - start), staticDestructor)
            }
            guard status == SQLITE_OK else { return status }
            index += 1
        }
        return SQLITE_OK
    }

    /// Bytes a value takes in the buffer.
    private static func byteCount(of value: StoreValue) -> Int {
        switch value {
        case .null, .integer, .real: 0
        case .text(let text): text.utf8.count
        case .utf8(let bytes), .blob(let bytes): bytes.count
        }
    }

    /// Makes room for `count` bytes (the old contents are not kept: nothing is bound from them
    /// that a step reads, as every parameter is bound again before the next step).
    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        capacity = max(count, capacity * 2)
        buffer.deallocate()
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    /// Copies `bytes` to `offset`; returns the offset after them.
    private func copy(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return offset }
        (buffer + offset).copyMemory(from: source, byteCount: bytes.count)
        return offset + bytes.count
    }

    private func address(_ offset: Int) -> UnsafeMutableRawPointer {
        buffer + offset
    }

    /// Text from the buffer; empty text is bound from the buffer's start (never a NULL pointer,
    /// which would bind NULL).
    private func bindText(from start: Int, to end: Int, at index: Int32, to statement: OpaquePointer) -> Int32 {
        sqlite3_bind_text64(statement, index, address(start).assumingMemoryBound(to: CChar.self), UInt64(end - start),
                            staticDestructor, UInt8(SQLITE_UTF8))
    }
}

/// `SQLITE_STATIC`: SQLite reads the bytes where they are, without copying them.
private let staticDestructor: sqlite3_destructor_type? = nil
