/// A result value as an SQL literal, clipped for reports: `12`, `1.5`, `'text'`, `X'0A0B'`, `NULL`.
enum SQLLiteral {
    private static let maxBytes = 48

    static func text(_ statement: SQLiteStatement, _ column: Int32) -> String {
        switch statement.storageClass(at: column) {
        case .null: return "NULL"
        case .integer: return String(statement.int64(at: column))
        case .real: return String(statement.double(at: column))
        case .text:
            return statement.withText(at: column) { bytes in
                let clipped = String(decoding: bytes.prefix(maxBytes), as: UTF8.self).replacingQuotes()
                return "'" + clipped + "'" + (bytes.count > maxBytes ? "…" : "")
            }
        default:
            return statement.withBlob(at: column) { bytes in
                let digits = Array("0123456789ABCDEF".utf8)
                var hex: [UInt8] = []
                for byte in bytes.prefix(maxBytes / 2) {
                    hex.append(digits[Int(byte >> 4)])
                    hex.append(digits[Int(byte & 0xF)])
                }
                return "X'" + String(decoding: hex, as: UTF8.self) + "'" + (bytes.count > maxBytes / 2 ? "…" : "")
            }
        }
    }
}

private extension String {
    func replacingQuotes() -> String {
        split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''")
    }
}
