import CSQLite
import FerryModel

/// Rows bound to a multi-row `INSERT` and not yet inserted (`EntityInserter`).
///
/// Values are bound as they are staged, without SQLite copying them: text and blob bytes are
/// first copied into a buffer this type owns and reuses, then bound with `SQLITE_STATIC`; the
/// bytes stay where they are until `clear()` (a buffer outgrown meanwhile is kept until then).
/// Each bound value is also noted as a trivial `Parameter`, so that rows bound to a statement
/// of many rows can be bound again to a shorter one when fewer rows are inserted
/// (`rebind(to:)`). Staging a row allocates nothing once the buffers have grown to a batch's size.
///
/// Used by the writer's thread alone: its fields, touched for every row, skip the run-time
/// exclusivity checks (`@exclusivity(unchecked)`).
final class PendingRows {
    /// One bound value; text and blob bytes are where the buffer holds them.
    private enum Parameter {
        case null
        case integer(Int64)
        case real(Double)
        case text(UnsafeRawPointer, count: Int)
        case blob(UnsafeRawPointer, count: Int)
        case zeroBlob
    }

    /// The values bound since `clear()`, in parameter order.
    @exclusivity(unchecked) private var parameters: UnsafeMutablePointer<Parameter>
    @exclusivity(unchecked) private var parameterCapacity: Int
    @exclusivity(unchecked) private var parameterCount = 0
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var used = 0
    /// Buffers outgrown since `clear()`: values bound earlier still point into them.
    private var outgrown: [UnsafeMutableRawPointer] = []
    /// Bytes staged since `clear()`.
    @exclusivity(unchecked) private(set) var byteCount = 0
    /// Rows staged since `clear()`.
    @exclusivity(unchecked) private(set) var rowCount = 0

    /// The largest byte buffer kept between batches.
    private static let keptCapacity = 4 << 20

    init() {
        capacity = 4096
        buffer = .allocate(byteCount: capacity, alignment: 16)
        parameterCapacity = 256
        parameters = .allocate(capacity: parameterCapacity)
    }

    deinit {
        buffer.deallocate()
        outgrown.forEach { $0.deallocate() }
        parameters.deallocate()
    }

    /// Where the staged rows end: `drop(after:)` takes back a row that failed to bind.
    struct End {
        fileprivate let parameters: Int
        fileprivate let rows: Int
        fileprivate let bytes: Int
    }

    var end: End { End(parameters: parameterCount, rows: rowCount, bytes: byteCount) }

    /// Forgets what was staged after `end` (its bytes stay in the buffer until `clear()`); the
    /// parameters it bound are bound again by the next row staged.
    func drop(after end: End) {
        parameterCount = end.parameters
        rowCount = end.rows
        byteCount = end.bytes
    }

    /// Forgets every staged row; the statements they were bound to must not run again before
    /// their parameters are bound anew.
    func clear() {
        parameterCount = 0
        used = 0
        byteCount = 0
        rowCount = 0
        if !outgrown.isEmpty {
            outgrown.forEach { $0.deallocate() }
            outgrown.removeAll(keepingCapacity: true)
        }
        if capacity > Self.keptCapacity {
            buffer.deallocate()
            capacity = Self.keptCapacity
            buffer = .allocate(byteCount: capacity, alignment: 16)
        }
    }

    /// Stages one row: binds `primaryKey` and `version` (`Z_PK`, `Z_OPT`; nil ones are not bound:
    /// the statement has a literal NULL key, for SQLite to give the next, or version 1), then `values`, to consecutive parameters of `statement` from `first`. Returns the first status that is not
    /// `SQLITE_OK`, or `SQLITE_OK`.
    func stage(primaryKey: Int64?, version: Int64?, _ values: [StoreValue], to statement: OpaquePointer, from first: Int32) -> Int32 {
        var binder = Binder(rows: self, statement: statement, index: first)
        binder.startRow(primaryKey: primaryKey, version: version)
        for value in values { binder.bindStored(value) }
        return binder.status
    }

    /// Stages one row of attribute values in their storage form (as `StoreValue(_:externallyStorable:)`
    /// gives it): binds `primaryKey` and `version` (nil: not bound, as above), then for each `sources[i]` the value
    /// `values[sources[i]]` (NULL where it is nil) to consecutive parameters of `statement` from
    /// `first`; binary values of parameters whose `tagged[i]` is true get Core Data's
    /// external-storage inline tag. Returns the first status that is not `SQLITE_OK`, or `SQLITE_OK`.
    func stage(primaryKey: Int64?, version: Int64?, _ values: UnsafeBufferPointer<AttributeValue>, sources: UnsafeBufferPointer<Int?>,
               tagged: UnsafeBufferPointer<Bool>, to statement: OpaquePointer, from first: Int32) -> Int32 {
        var binder = Binder(rows: self, statement: statement, index: first)
        binder.startRow(primaryKey: primaryKey, version: version)
        // Each value becomes a trivial `Parameter` before it is bound, its bytes copied into the
        // buffer's free room (no growing there): while a value is read, nothing is called that the
        // optimizer cannot see into, so it is read where it is (through the buffer pointer), not
        // copied (retained and released) one by one. A value that does not fit, or has no
        // contiguous bytes, is bound through its `StoreValue`.
        for (position, source) in sources.enumerated() where binder.status == SQLITE_OK {
            guard let source else {
                binder.bind(.null)
                continue
            }
            // A source past the values is a caller's bug, reported as SQLite's own range error.
            guard source < values.count else {
                binder.status = SQLITE_RANGE
                break
            }
            if let parameter = parameter(of: values[source], tagged: tagged[position]) {
                binder.bind(parameter)
            } else if tagged[position], case .binary(let blob) = values[source] {
                blob.withUnsafeBytes { binder.bindExternallyStorable($0) }
            } else {
                binder.bindStored(StoreValue(values[source], externallyStorable: false))
            }
        }
        return binder.status
    }

    /// The parameter of an attribute value in its storage form (as `StoreValue(_:externallyStorable:)`
    /// gives it), its text or blob bytes copied into the buffer's free room; a binary value of a
    /// `tagged` column gets Core Data's external-storage inline tag. Nil when the bytes do not
    /// fit in the room left, for a decimal, a UUID, and text without contiguous UTF-8.
    @inline(__always)
    private func parameter(of value: AttributeValue, tagged: Bool) -> Parameter? {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .double(let number), .date(let number): return .real(number)
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .string(let text), .uri(let text):
            return text.utf8.withContiguousStorageIfAvailable { utf8 in
                claim(utf8.count).map { .text(UnsafeRawPointer($0.copied(from: UnsafeRawBufferPointer(utf8))), count: utf8.count) }
            } ?? nil
        case .binary(let blob) where tagged:
            return blob.withUnsafeBytes { blob in
                let count = ExternalBinaryData.encodedCount(blob.count)
                return claim(count).map { start in
                    ExternalBinaryData.encode(blob, into: UnsafeMutableRawBufferPointer(start: start, count: count))
                    return .blob(UnsafeRawPointer(start), count: count)
                }
            }
        case .binary(let blob):
            // An empty blob is a zero-length zeroblob (a NULL pointer would bind NULL).
            guard !blob.isEmpty else { return .zeroBlob }
            return blob.withUnsafeBytes { blob in claim(blob.count).map { .blob(UnsafeRawPointer($0.copied(from: blob)), count: blob.count) } }
        case .decimal, .uuid: return nil
        }
    }

    /// `count` bytes of the buffer's free room, taken; nil when fewer are left (`reserve` grows it).
    @inline(__always)
    private func claim(_ count: Int) -> UnsafeMutableRawPointer? {
        guard used + count <= capacity else { return nil }
        let start = buffer + used
        used += count
        byteCount += count
        return start
    }

    /// Binds every staged value again, in order from parameter 1, to `statement` (one inserting
    /// exactly the staged rows); returns the first status that is not `SQLITE_OK`, or `SQLITE_OK`.
    func rebind(to statement: OpaquePointer) -> Int32 {
        for offset in 0..<parameterCount {
            let status = Self.bind(parameters[offset], at: Int32(offset + 1), to: statement)
            guard status == SQLITE_OK else { return status }
        }
        return SQLITE_OK
    }

    private static func bind(_ parameter: Parameter, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch parameter {
        case .null: sqlite3_bind_null(statement, index)
        case .integer(let number): sqlite3_bind_int64(statement, index, number)
        case .real(let number): sqlite3_bind_double(statement, index, number)
        case let .text(bytes, count):
            sqlite3_bind_text64(statement, index, bytes.assumingMemoryBound(to: CChar.self), UInt64(count), staticDestructor,
                                UInt8(SQLITE_UTF8))
        case let .blob(bytes, count): sqlite3_bind_blob64(statement, index, bytes, UInt64(count), staticDestructor)
        case .zeroBlob: sqlite3_bind_zeroblob(statement, index, 0)
        }
    }

    /// Notes a bound value.
    private func note(_ parameter: Parameter) {
        if parameterCount == parameterCapacity {
            let larger = UnsafeMutablePointer<Parameter>.allocate(capacity: parameterCapacity * 2)
            larger.moveInitialize(from: parameters, count: parameterCount)
            parameters.deallocate()
            parameters = larger
            parameterCapacity *= 2
        }
        (parameters + parameterCount).initialize(to: parameter)
        parameterCount += 1
    }

    /// `count` contiguous bytes after the staged ones (in a larger buffer when they do not fit;
    /// the old one lives until `clear()`).
    private func reserve(_ count: Int) -> UnsafeMutableRawPointer {
        if used + count > capacity {
            outgrown.append(buffer)
            capacity = max(capacity * 2, count)
            buffer = .allocate(byteCount: capacity, alignment: 16)
            used = 0
        }
        return claim(count)!
    }

    /// Binds the values of one row to consecutive parameters, noting each, until one fails.
    private struct Binder {
        let rows: PendingRows
        let statement: OpaquePointer
        var index: Int32
        var status = SQLITE_OK

        init(rows: PendingRows, statement: OpaquePointer, index: Int32) {
            self.rows = rows
            self.statement = statement
            self.index = index
        }

        mutating func startRow(primaryKey: Int64?, version: Int64?) {
            rows.rowCount += 1
            if let primaryKey { bind(.integer(primaryKey)) }
            if let version { bind(.integer(version)) }
        }

        mutating func bind(_ parameter: Parameter) {
            guard status == SQLITE_OK else { return }
            status = PendingRows.bind(parameter, at: index, to: statement)
            rows.note(parameter)
            index += 1
        }

        mutating func bindStored(_ value: StoreValue) {
            switch value {
            case .null: bind(.null)
            case .integer(let number): bind(.integer(number))
            case .real(let number): bind(.real(number))
            case .text(let text): bindText(text)
            case .utf8(let bytes): bytes.withUnsafeBytes { bind(.text(UnsafeRawPointer(copy($0)), count: $0.count)) }
            case .blob(let bytes): bytes.withUnsafeBytes { bindBlob($0) }
            }
        }

        /// Text from the buffer; empty text is bound from the buffer too (a NULL pointer would bind NULL).
        mutating func bindText(_ text: String) {
            if text.utf8.withContiguousStorageIfAvailable({ bind(.text(UnsafeRawPointer(copy(UnsafeRawBufferPointer($0))), count: $0.count)) }) != nil {
                return
            }
            var text = text
            text.withUTF8 { bind(.text(UnsafeRawPointer(copy(UnsafeRawBufferPointer($0))), count: $0.count)) }
        }

        /// A blob from the buffer; an empty blob is a zero-length zeroblob (a NULL pointer would bind NULL).
        mutating func bindBlob(_ bytes: UnsafeRawBufferPointer) {
            guard !bytes.isEmpty else { return bind(.zeroBlob) }
            bind(.blob(UnsafeRawPointer(copy(bytes)), count: bytes.count))
        }

        /// The column value of `bytes` of an attribute that allows external storage
        /// (`ExternalBinaryData.encode`), from the buffer.
        mutating func bindExternallyStorable(_ bytes: UnsafeRawBufferPointer) {
            let count = ExternalBinaryData.encodedCount(bytes.count)
            let start = rows.reserve(count)
            ExternalBinaryData.encode(bytes, into: UnsafeMutableRawBufferPointer(start: start, count: count))
            bind(.blob(UnsafeRawPointer(start), count: count))
        }

        /// Copies `bytes` after the staged ones; returns where they are.
        private func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
            rows.reserve(bytes.count).copied(from: bytes)
        }
    }
}

/// `SQLITE_STATIC`: SQLite reads the bytes where they are, without copying them.
private let staticDestructor: sqlite3_destructor_type? = nil

private extension UnsafeMutableRawPointer {
    /// Copies `bytes` here (nothing when empty); returns self.
    func copied(from bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer {
        if let source = bytes.baseAddress, !bytes.isEmpty { copyMemory(from: source, byteCount: bytes.count) }
        return self
    }
}
