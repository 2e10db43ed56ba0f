/// Typed reads of a binary row's fields (check `isNull` first: a NULL field reads as empty).
extension PostgresRow {
    /// An `int2`, `int4` or `int8` field.
    public func integer(_ column: Int) throws(PostgresError) -> Int64 {
        try withBytes(column) { bytes throws(PostgresError) in try PostgresBinary.integer(bytes) }
    }

    /// A `float4` or `float8` field.
    public func double(_ column: Int) throws(PostgresError) -> Double {
        try withBytes(column) { bytes throws(PostgresError) in try PostgresBinary.double(bytes) }
    }

    public func bool(_ column: Int) throws(PostgresError) -> Bool {
        try withBytes(column) { bytes throws(PostgresError) in
            guard bytes.count == 1 else { throw .value(reason: "a boolean field of \(bytes.count) bytes") }
            return bytes[0] != 0
        }
    }

    /// A `text` field (or any field whose binary form is its UTF-8 text).
    public func text(_ column: Int) throws(PostgresError) -> String {
        try withBytes(column) { bytes throws(PostgresError) in
            guard let text = String(validating: bytes, as: UTF8.self) else { throw .value(reason: "a text field that is not UTF-8") }
            return text
        }
    }

    /// A `bytea` field.
    public func bytes(_ column: Int) throws(PostgresError) -> [UInt8] {
        try withBytes(column) { bytes throws(PostgresError) in Array(bytes) }
    }

    /// A `uuid` field's 16 bytes.
    public func uuid(_ column: Int) throws(PostgresError) -> [UInt8] {
        try withBytes(column) { bytes throws(PostgresError) in
            guard bytes.count == 16 else { throw .value(reason: "a uuid field of \(bytes.count) bytes") }
            return Array(bytes)
        }
    }

    /// A `numeric` field as plain decimal text; nil for NaN and infinities.
    public func numeric(_ column: Int) throws(PostgresError) -> String? {
        try withBytes(column) { bytes throws(PostgresError) in try PostgresNumeric.decode(bytes) }
    }

    /// A `timestamptz` (or `timestamp`) field: microseconds since 2000-01-01 00:00:00 UTC.
    public func timestamp(_ column: Int) throws(PostgresError) -> Int64 {
        try withBytes(column) { bytes throws(PostgresError) in
            guard bytes.count == 8 else { throw .value(reason: "a timestamp field of \(bytes.count) bytes") }
            return PostgresBinary.integer(bytes, as: Int64.self)
        }
    }
}
