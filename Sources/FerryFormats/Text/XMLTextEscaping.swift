/// Appends text as XML character data: `&`, `<` and `>` escaped (enough for element content), and
/// carriage returns as character references.
public enum XMLTextEscaping {
    /// Appends the escaped UTF-8 bytes of `text`. A carriage return is written as `&#13;`: an XML
    /// reader turns a literal one (and CR LF) into a line feed, so the text would read back changed.
    public static func append(_ text: String, to output: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: "&#13;".utf8)
            default: output.append(byte)
            }
        }
    }

    /// The first character of `text` that XML 1.0 cannot hold in any form (control characters
    /// other than tab, line feed and carriage return, U+FFFE, U+FFFF: not even as a character
    /// reference), or nil when every one can be written.
    public static func firstUnwritable(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first { scalar in
            (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE || scalar.value == 0xFFFF
        }
    }
}
