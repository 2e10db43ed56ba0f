/// Appends text as XML character data: `&`, `<` and `>` escaped (enough for element content).
public enum XMLTextEscaping {
    /// Appends the escaped UTF-8 bytes of `text`.
    public static func append(_ text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            default: output.append(byte)
            }
        }
    }
}
