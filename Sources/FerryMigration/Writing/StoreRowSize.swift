import FerryModel

/// What one record costs in a SQLite row, checked before it is written: SQLite refuses a row (or a
/// value) longer than `SQLITE_MAX_LENGTH`, 1,000,000,000 bytes by default, with its own "string or
/// blob too big" naming the temporary store; Ferry rejects the record instead, saying why.
enum StoreRowSize {
    /// SQLite's default `SQLITE_MAX_LENGTH`.
    static let maxRowBytes = 1_000_000_000

    /// The bytes a row of these values takes at most: their text and blob bytes, 8 for any other
    /// value, and the record header (at most 9 bytes per column and 9 for its length).
    static func bytes(of values: [AttributeValue]) -> Int {
        var total = 9 * (values.count + 1)
        for index in values.indices {
            switch values[index] {
            case .string(let text), .decimal(let text), .uri(let text): total += text.utf8.count
            case .binary(let bytes): total += bytes.count
            case .uuid: total += 16
            default: total += 8
            }
        }
        return total
    }

    /// Why a record with these values cannot be a row of at most `limit` bytes, or nil when it can.
    static func problem(_ values: [AttributeValue], limit: Int = maxRowBytes) -> String? {
        let size = bytes(of: values)
        guard size > limit else { return nil }
        return "the record holds \(size) bytes, more than SQLite stores in one row (\(limit))"
    }
}
