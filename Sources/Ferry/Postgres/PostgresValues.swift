import FerryMigration
import FerryModel
import FerryPostgres
import FerryStore

/// Attribute values in and out of their PostgreSQL columns (`PostgresColumnType`), exactly or
/// not at all. PostgreSQL keeps time to the microsecond: a date with finer digits is rounded in
/// its `timestamptz` and kept exactly beside it (`PostgresColumn.Role.exactDate`).
enum PostgresValues {
    /// Seconds from PostgreSQL's epoch (2000-01-01) to Core Data's (2001-01-01), in microseconds.
    static let referenceDateOffset: Int64 = 31_622_400 * 1_000_000

    /// Whether a date (seconds since 2001) is a whole number of microseconds, as a `timestamptz` keeps it.
    static func isMicrosecondExact(_ date: Double) -> Bool {
        guard let microseconds = timestamp(date) else { return false }
        return seconds(microseconds: microseconds - referenceDateOffset) == date
    }

    /// Writes `value` as a field of `type`; the reason it cannot be written exactly, or nil.
    static func write(_ value: AttributeValue, as type: PostgresColumnType, to copy: CopyInWriter) -> String? {
        switch (value, type) {
        case (.null, _): copy.appendNull()
        case (.integer(let number), .smallint):
            guard let exact = Int16(exactly: number) else { return "\(number) does not fit a smallint" }
            copy.append(int16: exact)
        case (.integer(let number), .integer):
            guard let exact = Int32(exactly: number) else { return "\(number) does not fit an integer" }
            copy.append(int32: exact)
        case (.integer(let number), .bigint): copy.append(int64: number)
        case (.bool(let flag), .boolean): copy.append(bool: flag)
        case (.double(let number), .doublePrecision): copy.append(float64: number)
        case (.double(let number), .real):
            let single = Float(number)
            guard Double(single) == number || number.isNaN else { return "\(number) is not exact as a 4-byte float (real)" }
            copy.append(float32: single)
        case (.decimal(let text), .numeric):
            guard let plain = DecimalNotation.plain(text.utf8), let encoded = PostgresNumeric.encode(plain) else {
                return "\(text) is not a decimal number"
            }
            // A decimal no store keeps as it is (an integer past 2^53 in the column, which Core
            // Data reads as a double) could be loaded, but never restored.
            if let problem = StoredDecimal.problem(plain) { return problem + ", so a restore could not bring it back" }
            copy.append(bytes: encoded)
        case (.string(let text), .text), (.uri(let text), .text):
            guard !text.utf8.contains(0) else { return "text holding a NUL character, which PostgreSQL's text cannot" }
            copy.append(text: text)
        case (.date(let seconds), .timestamptz):
            guard let microseconds = timestamp(seconds) else {
                return "the date \(seconds) (seconds since 2001) is outside what PostgreSQL's timestamptz holds (4713 BC to 294276 AD)"
            }
            copy.append(timestamp: microseconds)
        case (.binary(let bytes), .bytea): copy.append(bytes: bytes)
        case (.uuid(let uuid), .uuid): copy.append(bytes: uuid.bytes)
        default: return "the value is not of the column's type (\(type.sql))"
        }
        return nil
    }

    /// Writes a value lent as the store holds it (`PlainStoredValue`) when that is exactly what
    /// `write(_:as:to:)` writes for its attribute value; false when it must go that way instead
    /// (a value to convert, or one that cannot be written, whose reason that way gives).
    static func write(_ plain: PlainStoredValue, as type: PostgresColumnType, to copy: CopyInWriter) -> Bool {
        switch (plain, type) {
        case (.null, _): copy.appendNull()
        case (.integer(let number), .smallint):
            guard let exact = Int16(exactly: number) else { return false }
            copy.append(int16: exact)
        case (.integer(let number), .integer):
            guard let exact = Int32(exactly: number) else { return false }
            copy.append(int32: exact)
        case (.integer(let number), .bigint): copy.append(int64: number)
        case (.text(let text), .text):
            guard !text.contains(0) else { return false }
            copy.append(bytes: text)
        case (.bytes(let bytes), .bytea): copy.append(bytes: bytes)
        default: return false
        }
        return true
    }

    /// The value of `row`'s field `column` (a column of `type`) as an attribute of `attributeType`.
    static func read(_ row: PostgresRow, _ column: Int, type: PostgresColumnType,
                     as attributeType: AttributeType) throws(PostgresError) -> AttributeValue {
        guard !row.isNull(column) else { return .null }
        switch (type, attributeType) {
        case (.smallint, _), (.integer, _), (.bigint, _): return .integer(try row.integer(column))
        case (.boolean, _): return .bool(try row.bool(column))
        case (.real, _), (.doublePrecision, _):
            let number = try row.double(column)
            // SQLite stores NULL for a NaN: the restored value would not be the one read.
            guard !number.isNaN else { throw .value(reason: "NaN, which a store cannot hold (SQLite keeps NULL for it)") }
            return .double(number)
        case (.numeric, _):
            guard let text = try row.numeric(column), let plain = DecimalNotation.plain(text.utf8) else {
                throw .value(reason: "a numeric that is not a finite decimal number")
            }
            return .decimal(plain)
        case (.text, .uri): return .uri(try row.text(column))
        case (.text, _): return .string(try row.text(column))
        case (.timestamptz, _):
            let microseconds = try row.timestamp(column)
            // PostgreSQL's `infinity` and `-infinity` are the extremes of its count: no date.
            guard microseconds != .max, microseconds != .min else {
                throw .value(reason: "'\(microseconds == .max ? "infinity" : "-infinity")', which no date holds")
            }
            return .date(seconds(microseconds: microseconds - referenceDateOffset))
        case (.bytea, _): return .binary(try row.bytes(column))
        case (.uuid, _):
            guard let uuid = UUIDBytes(try row.uuid(column)) else { throw .value(reason: "a uuid that is not 16 bytes") }
            return .uuid(uuid)
        }
    }

    /// PostgreSQL's timestamps, in microseconds since 2000: from Julian day 0 (4714-11-24 BC) up to,
    /// not including, 294277-01-01 (`MIN_TIMESTAMP`, `END_TIMESTAMP`).
    private static let timestampRange: Range<Int64> = -211_813_488_000_000_000 ..< 9_223_371_331_200_000_000

    /// The timestamp of a date (seconds since 2001), to the nearest microsecond; nil when
    /// PostgreSQL has no such time. Whole seconds and the fraction are converted apart, in
    /// integers: past 2^53 microseconds (about the year 2286) a double's product was off by one.
    static func timestamp(_ seconds: Double) -> Int64? {
        guard seconds.isFinite, abs(seconds) < 9.2e12 else { return nil }
        let whole = seconds.rounded(.down)
        // Exact: a double and its floor share their exponent's range.
        let fraction = Int64(((seconds - whole) * 1_000_000).rounded())
        guard let wholeSeconds = Int64(exactly: whole) else { return nil }
        let microseconds = wholeSeconds * 1_000_000 + fraction + referenceDateOffset
        return timestampRange.contains(microseconds) ? microseconds : nil
    }

    /// Seconds since 2001 of a count of microseconds, as the nearest double.
    private static func seconds(microseconds: Int64) -> Double {
        Double(microseconds) / 1_000_000
    }
}
