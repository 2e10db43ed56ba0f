/// Appends one CSV field (RFC 4180): quoted when it holds the delimiter, a quote, CR or LF, or is
/// empty (so an empty string reads back as `""`, apart from NULL, which is an empty unquoted field).
public enum CSVFieldEncoding {
    /// Appends the field for the UTF-8 bytes of `text`.
    public static func append(_ text: some Collection<UInt8>, delimiter: UInt8 = UInt8(ascii: ","), to output: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        guard text.isEmpty || text.contains(where: { $0 == delimiter || $0 == quote || $0 == 0x0A || $0 == 0x0D }) else {
            output.append(contentsOf: text)
            return
        }
        output.append(quote)
        for byte in text {
            if byte == quote { output.append(quote) }
            output.append(byte)
        }
        output.append(quote)
    }

    /// Appends the field for a string.
    public static func append(_ text: String, delimiter: UInt8 = UInt8(ascii: ","), to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, delimiter: delimiter, to: &output) }
    }
}
