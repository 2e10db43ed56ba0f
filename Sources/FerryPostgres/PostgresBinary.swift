/// PostgreSQL's binary wire format for the types Ferry uses: big-endian integers and IEEE
/// floats, one byte for booleans, UTF-8 text, raw bytes, 16 UUID bytes, and timestamps as
/// microseconds since 2000-01-01 00:00:00 UTC. (Numerics: `PostgresNumeric`.)
public enum PostgresBinary {
    static func append<Integer: FixedWidthInteger>(_ value: Integer, to buffer: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    static func integer<Integer: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as: Integer.Type) -> Integer {
        var value: Integer = 0
        for byte in bytes.prefix(MemoryLayout<Integer>.size) { value = value << 8 | Integer(byte) }
        return value
    }

    /// An `int2`, `int4` or `int8` field by its length.
    static func integer(_ bytes: UnsafeRawBufferPointer) throws(PostgresError) -> Int64 {
        switch bytes.count {
        case 2: Int64(integer(bytes, as: Int16.self))
        case 4: Int64(integer(bytes, as: Int32.self))
        case 8: integer(bytes, as: Int64.self)
        default: throw .value(reason: "an integer field of \(bytes.count) bytes")
        }
    }

    /// A `float4` or `float8` field by its length.
    static func double(_ bytes: UnsafeRawBufferPointer) throws(PostgresError) -> Double {
        switch bytes.count {
        case 4: Double(Float(bitPattern: integer(bytes, as: UInt32.self)))
        case 8: Double(bitPattern: integer(bytes, as: UInt64.self))
        default: throw .value(reason: "a floating-point field of \(bytes.count) bytes")
        }
    }
}
