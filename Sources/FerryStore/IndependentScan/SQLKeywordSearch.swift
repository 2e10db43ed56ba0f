/// Finds a keyword in SQL text where it is a keyword: outside string literals, quoted
/// identifiers (`"…"`, `` `…` ``, `[…]`) and comments, and not part of a longer name. Not a
/// parser: enough to tell whether a `CREATE TABLE` statement declares a `CHECK` constraint.
enum SQLKeywordSearch {
    /// Whether `keyword` (ASCII letters) occurs as a word of `sql` outside quotes and comments.
    static func contains(_ keyword: String, in sql: String) -> Bool {
        let bytes = Array(sql.utf8)
        let wanted = Array(keyword.uppercased().utf8)
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "`"):
                position = closing(byte, in: bytes, after: position)
            case UInt8(ascii: "["):
                position = closing(UInt8(ascii: "]"), in: bytes, after: position)
            case UInt8(ascii: "-") where next(bytes, position) == UInt8(ascii: "-"):
                position = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            case UInt8(ascii: "/") where next(bytes, position) == UInt8(ascii: "*"):
                position = commentEnd(in: bytes, after: position + 2)
            case _ where isNameByte(byte):
                let start = position
                while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
                if bytes[start..<position].map(uppercased) == wanted { return true }
            default:
                position += 1
            }
        }
        return false
    }

    /// The position after the quote closing the one at `start` (a doubled quote is part of the text).
    private static func closing(_ quote: UInt8, in bytes: [UInt8], after start: Int) -> Int {
        var position = start + 1
        while position < bytes.count {
            if bytes[position] == quote {
                guard next(bytes, position) == quote, quote != UInt8(ascii: "]") else { return position + 1 }
                position += 2
            } else {
                position += 1
            }
        }
        return bytes.count
    }

    private static func commentEnd(in bytes: [UInt8], after start: Int) -> Int {
        var position = start
        while position + 1 < bytes.count {
            if bytes[position] == UInt8(ascii: "*"), bytes[position + 1] == UInt8(ascii: "/") { return position + 2 }
            position += 1
        }
        return bytes.count
    }

    private static func next(_ bytes: [UInt8], _ position: Int) -> UInt8? {
        position + 1 < bytes.count ? bytes[position + 1] : nil
    }

    /// Letters, digits, `_`, `$` and every byte of a non-ASCII character: what a bare name is made of.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte >= 0x80
    }

    private static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }
}
