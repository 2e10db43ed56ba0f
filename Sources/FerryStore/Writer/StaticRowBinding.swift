import CSQLite
import FerryModel

/// Binds the values of one row to a statement without SQLite copying them: text and blob bytes
/// are first copied into a buffer this binding owns, then bound with `SQLITE_STATIC`.
///
/// SQLite frees the copy it makes of a `SQLITE_TRANSIENT` value when the parameter is bound
/// again, so every text or blob of every row would cost an allocation and a free. Here the
/// buffer is reused: it holds the bytes of the latest row, which is all a statement reads when it
/// steps. The bindings point into the buffer until they are bound again, so a statement must
/// not be stepped with a row bound by an earlier call once `bind` is called again (each row binds
/// every parameter it takes before stepping), nor after the binding is released.
final class StaticRowBinding {
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0
    /// Buffers outgrown while binding a row: the row's earlier values still point into them, so
    /// they are freed when the next row starts.
    private var outgrown: [UnsafeMutableRawPointer] = []

    init() {
        capacity = 4096
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        outgrown.forEach { $0.deallocate() }
    }

    /// Binds `values` to consecutive parameters from `first` (counting from 1); returns the first
    /// status that is not `SQLITE_OK`, or `SQLITE_OK`.
    func bind(_ values: [StoreValue], from first: Int32, to statement: OpaquePointer) -> Int32 {
        startRow()
        var index = first
        for value in values {
            let status = bind(value, at: index, to: statement)
            guard status == SQLITE_OK else { return status }
            index += 1
        }
        return SQLITE_OK
    }

    /// Binds attribute values in their storage form (as `StoreValue(_:externallyStorable:)` gives
    /// it) to consecutive parameters from `first`: parameter `first + i` takes
    /// `values[sources[i]]`, NULL where `sources[i]` is nil; binary values of parameters whose
    /// `tagged[i]` is true get Core Data's external-storage inline tag. Returns the first status
    /// that is not `SQLITE_OK`, or `SQLITE_OK`.
    func bind(_ values: [AttributeValue], sources: [Int?], tagged: [Bool], from first: Int32, to statement: OpaquePointer) -> Int32 {
        startRow()
        // Through a buffer pointer the values are borrowed where they are, not copied (retained)
        // one by one.
        return values.withUnsafeBufferPointer { values in
            var index = first
            for (position, source) in sources.enumerated() {
                let status: Int32
                if let source {
                    // A source past the values is a caller's bug, reported as SQLite's own range error.
                    guard source < values.count else { return SQLITE_RANGE }
                    switch values[source] {
                    case .null: status = sqlite3_bind_null(statement, index)
                    case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
                    case .double(let number), .date(let number): status = sqlite3_bind_double(statement, index, number)
                    case .bool(let flag): status = sqlite3_bind_int64(statement, index, flag ? 1 : 0)
                    case .string(let text), .uri(let text): status = bindText(text, at: index, to: statement)
                    case .binary(let bytes) where tagged[position]:
                        status = bytes.withUnsafeBytes { bindExternallyStorable($0, at: index, to: statement) }
                    case .binary(let bytes): status = bytes.withUnsafeBytes { bindBlob($0, at: index, to: statement) }
                    case .decimal, .uuid:
                        status = bind(StoreValue(values[source], externallyStorable: false), at: index, to: statement)
                    }
                } else {
                    status = sqlite3_bind_null(statement, index)
                }
                guard status == SQLITE_OK else { return status }
                index += 1
            }
            return SQLITE_OK
        }
    }

    private func bind(_ value: StoreValue, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .real(let number): sqlite3_bind_double(statement, index, number)
        case .text(let text): bindText(text, at: index, to: statement)
        case .utf8(let bytes): bytes.withUnsafeBytes { bindText($0, at: index, to: statement) }
        case .blob(let bytes): bytes.withUnsafeBytes { bindBlob($0, at: index, to: statement) }
        }
    }

    private func bindText(_ text: String, at index: Int32, to statement: OpaquePointer) -> Int32 {
        if let status = text.utf8.withContiguousStorageIfAvailable({ bindText(UnsafeRawBufferPointer($0), at: index, to: statement) }) {
            return status
        }
        var text = text
        return text.withUTF8 { bindText(UnsafeRawBufferPointer($0), at: index, to: statement) }
    }

    /// Text from the buffer; empty text is bound from the buffer too (a NULL pointer would bind NULL).
    private func bindText(_ utf8: UnsafeRawBufferPointer, at index: Int32, to statement: OpaquePointer) -> Int32 {
        let bytes = copy(utf8)
        return sqlite3_bind_text64(statement, index, bytes.assumingMemoryBound(to: CChar.self), UInt64(utf8.count),
                                   staticDestructor, UInt8(SQLITE_UTF8))
    }

    /// A blob from the buffer; an empty blob is a zero-length zeroblob (a NULL pointer would bind NULL).
    private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32, to statement: OpaquePointer) -> Int32 {
        guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, index, 0) }
        return sqlite3_bind_blob64(statement, index, copy(bytes), UInt64(bytes.count), staticDestructor)
    }

    /// The column value of `bytes` of an attribute that allows external storage
    /// (`ExternalBinaryData.encode`), from the buffer.
    private func bindExternallyStorable(_ bytes: UnsafeRawBufferPointer, at index: Int32, to statement: OpaquePointer) -> Int32 {
        let count = ExternalBinaryData.encodedCount(bytes.count)
        let start = reserve(count)
        ExternalBinaryData.encode(bytes, into: UnsafeMutableRawBufferPointer(start: start, count: count))
        return sqlite3_bind_blob64(statement, index, start, UInt64(count), staticDestructor)
    }

    /// A new row: the previous row's bytes are no longer read.
    private func startRow() {
        used = 0
        // Rarely anything: a row's values almost always fit the buffer.
        guard !outgrown.isEmpty else { return }
        outgrown.forEach { $0.deallocate() }
        outgrown.removeAll(keepingCapacity: true)
    }

    /// Copies `bytes` after the row's earlier values; returns where they are.
    private func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        let start = reserve(bytes.count)
        if let source = bytes.baseAddress, !bytes.isEmpty {
            start.copyMemory(from: source, byteCount: bytes.count)
        }
        return start
    }

    /// `count` contiguous bytes after the row's earlier values (in a larger buffer when they do
    /// not fit; the old one lives until the next row).
    private func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if used + count > capacity {
            outgrown.append(buffer)
            capacity = max(capacity * 2, count)
            buffer = .allocate(byteCount: capacity, alignment: 16)
            used = 0
        }
        let start = buffer + used
        used += count
        return start
    }
}

/// `SQLITE_STATIC`: SQLite reads the bytes where they are, without copying them.
private let staticDestructor: sqlite3_destructor_type? = nil
