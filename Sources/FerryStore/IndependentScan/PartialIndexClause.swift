/// The `WHERE` clause of a partial index, found in its `CREATE INDEX` statement as `sqlite_master`
/// keeps it: the text after the column list's closing parenthesis, past quoted names, strings and
/// comments. For reading the index's rows from its table with the same clause (`PairIndexScan`).
enum PartialIndexClause {
    /// The condition, followed by a line break (it may end in a `--` comment); nil when the
    /// statement has no `WHERE` after its column list.
    static func condition(of statement: String) -> String? {
        let bytes = Array(statement.utf8)
        var position = 0
        var depth = 0
        var listEnd: Int?
        scan: while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                position = quotedEnd(bytes, from: position, closing: bytes[position])
            case UInt8(ascii: "["):
                position = quotedEnd(bytes, from: position, closing: UInt8(ascii: "]"))
            case UInt8(ascii: "-") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "-"):
                while position < bytes.count && bytes[position] != UInt8(ascii: "\n") { position += 1 }
            case UInt8(ascii: "/") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "*"):
                position += 2
                while position + 1 < bytes.count && !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/")) { position += 1 }
                position += 1
            case UInt8(ascii: "("):
                depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 {
                    listEnd = position
                    break scan
                }
            default:
                break
            }
            position += 1
        }
        guard let listEnd else { return nil }
        let rest = String(decoding: bytes[(listEnd + 1)...], as: UTF8.self)
        let trimmed = rest.drop { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        guard trimmed.prefix(5).uppercased() == "WHERE", let next = trimmed.dropFirst(5).first,
              next == " " || next == "\n" || next == "\t" || next == "\r" || next == "(" else { return nil }
        return String(trimmed.dropFirst(5)) + "\n"
    }

    /// The position of the quote closing the one at `start` (a doubled quote stays inside).
    private static func quotedEnd(_ bytes: [UInt8], from start: Int, closing: UInt8) -> Int {
        var position = start + 1
        while position < bytes.count {
            if bytes[position] == closing {
                guard closing != UInt8(ascii: "]"), position + 1 < bytes.count, bytes[position + 1] == closing else { return position }
                position += 1
            }
            position += 1
        }
        return position
    }
}
