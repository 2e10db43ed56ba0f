/// Writes Apple's binary property list format (`bplist00`) the way Apple's writer lays it out.
///
/// Equal scalars are stored once; integers use the smallest of 1, 2, 4 or 8 bytes (negative
/// values 8, values beyond `Int64` 16); dictionary keys are sorted by UTF-16 code units, so equal
/// values give identical bytes; strings are ASCII when they can be, otherwise UTF-16BE; reals are
/// 8-byte doubles; offsets and references use the smallest of 1, 2, 4 or 8 bytes.
public struct BinaryPropertyListWriter: Sendable {
    private typealias Format = BinaryPropertyListFormat

    /// The deepest nesting of arrays, sets and dictionaries that is written.
    public var maxDepth: Int

    public init(maxDepth: Int = BinaryPropertyListReader.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    /// Encodes `value` as a complete binary property list.
    /// - Throws: `PropertyListError.unencodable` when containers nest deeper than `maxDepth`, or for
    ///   a real that no `Double` holds (`PropertyListValue.unrepresentableReal`).
    public func encode(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        let table = try BinaryPropertyListObjectTable(root: value, maxDepth: maxDepth)
        let referenceSize = Self.byteWidth(UInt64(table.entries.count))
        var output = Format.header
        var offsets: [Int] = []
        offsets.reserveCapacity(table.entries.count)
        for entry in table.entries {
            offsets.append(output.count)
            switch entry {
            case .scalar(let scalar): Self.appendScalar(scalar, to: &output)
            case .array(let references): Self.appendContainer(.array, references, referenceSize, to: &output)
            case .set(let references): Self.appendContainer(.set, references, referenceSize, to: &output)
            case .dictionary(let keys, let values):
                Self.appendMarker(.dictionary, count: keys.count, to: &output)
                for reference in keys + values { output.appendBigEndian(UInt64(reference), width: referenceSize) }
            }
        }
        let tableStart = output.count
        let offsetSize = Self.byteWidth(UInt64(tableStart))
        for offset in offsets { output.appendBigEndian(UInt64(offset), width: offsetSize) }
        output.append(contentsOf: repeatElement(0, count: 6))
        output.append(UInt8(offsetSize))
        output.append(UInt8(referenceSize))
        output.appendBigEndian(UInt64(table.entries.count), width: 8)
        output.appendBigEndian(0, width: 8)
        output.appendBigEndian(UInt64(tableStart), width: 8)
        return output
    }

    /// The smallest of 1, 2, 4 and 8 bytes that holds `value`.
    static func byteWidth(_ value: UInt64) -> Int {
        switch value {
        case ...0xFF: 1
        case ...0xFFFF: 2
        case ...0xFFFF_FFFF: 4
        default: 8
        }
    }

    private static func appendScalar(_ value: PropertyListValue, to output: inout [UInt8]) {
        switch value {
        case .string(let string):
            if string.utf8.allSatisfy({ $0 < 0x80 }) {
                appendMarker(.asciiString, count: string.utf8.count, to: &output)
                output.append(contentsOf: string.utf8)
            } else {
                appendMarker(.utf16String, count: string.utf16.count, to: &output)
                for unit in string.utf16 { output.appendBigEndian(UInt64(unit), width: 2) }
            }
        case .integer(let integer):
            appendInteger(integer, to: &output)
        case .real(let real):
            output.append(Format.markerReal64)
            output.appendBigEndian(real.bitPattern, width: 8)
        case .bool(let bool):
            output.append(bool ? Format.markerTrue : Format.markerFalse)
        case .date(let seconds):
            output.append(Format.markerDate)
            output.appendBigEndian(seconds.bitPattern, width: 8)
        case .data(let bytes):
            appendMarker(.data, count: bytes.count, to: &output)
            output.append(contentsOf: bytes)
        case .uid(let uid):
            let width = byteWidth(uid)
            output.append(Format.Kind.uid.rawValue << 4 | UInt8(width - 1))
            output.appendBigEndian(uid, width: width)
        case .array, .set, .dictionary, .unrepresentableReal:
            break // containers are entries of their own in the object table, which refuses unrepresentable reals
        }
    }

    private static func appendInteger(_ integer: Int128, to output: inout [UInt8]) {
        let integerMarker = Format.Kind.integer.rawValue << 4
        if integer >= 0, integer <= Int128(Int64.max) {
            let width = byteWidth(UInt64(integer))
            output.append(integerMarker | UInt8(width.trailingZeroBitCount))
            output.appendBigEndian(UInt64(integer), width: width)
        } else if integer < 0, integer >= Int128(Int64.min) {
            output.append(integerMarker | 3)
            output.appendBigEndian(UInt64(truncatingIfNeeded: integer), width: 8)
        } else {
            output.append(integerMarker | 4)
            output.appendBigEndian(UInt64(truncatingIfNeeded: integer >> 64), width: 8)
            output.appendBigEndian(UInt64(truncatingIfNeeded: integer), width: 8)
        }
    }

    private static func appendContainer(_ kind: Format.Kind, _ references: [Int], _ referenceSize: Int, to output: inout [UInt8]) {
        appendMarker(kind, count: references.count, to: &output)
        for reference in references { output.appendBigEndian(UInt64(reference), width: referenceSize) }
    }

    /// A marker byte with `count` in its low nibble, or 0xF and the count as an integer object.
    private static func appendMarker(_ kind: Format.Kind, count: Int, to output: inout [UInt8]) {
        if count < Int(Format.extendedCount) {
            output.append(kind.rawValue << 4 | UInt8(count))
        } else {
            output.append(kind.rawValue << 4 | Format.extendedCount)
            appendInteger(Int128(count), to: &output)
        }
    }
}

extension [UInt8] {
    /// Appends the low `width` bytes of `value`, most significant first.
    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        for shift in stride(from: 8 * (width - 1), through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
