/// Standard base64 (RFC 4648, with padding), appended straight to a byte buffer.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the encoding of `bytes[range]`.
    static func append(_ bytes: [UInt8], _ range: Range<Int>, to out: inout [UInt8]) {
        var i = range.lowerBound
        while i + 3 <= range.upperBound {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out.append(alphabet[Int(n >> 18)])
            out.append(alphabet[Int((n >> 12) & 63)])
            out.append(alphabet[Int((n >> 6) & 63)])
            out.append(alphabet[Int(n & 63)])
            i += 3
        }
        let rest = range.upperBound - i
        guard rest > 0 else { return }
        let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
        out.append(alphabet[Int(n >> 18)])
        out.append(alphabet[Int((n >> 12) & 63)])
        out.append(rest == 2 ? alphabet[Int((n >> 6) & 63)] : UInt8(ascii: "="))
        out.append(UInt8(ascii: "="))
    }
}
