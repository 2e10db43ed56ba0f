/// Appends text as a JSON string literal (RFC 8259): quotes, backslashes and control characters
/// escaped, everything else copied as UTF-8.
public enum JSONStringEncoding {
    private static let hex = Array("0123456789abcdef".utf8)

    /// Appends `"…"` for the UTF-8 bytes of `text`.
    public static func append(_ text: some Collection<UInt8>, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Appends `"…"` for a string.
    public static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, to: &output) }
    }
}
