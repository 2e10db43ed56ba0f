/// Appends one CSV field (RFC 4180): quoted when it holds the delimiter, a quote, CR or LF, or is
/// empty (so an empty string reads back as `""`, apart from NULL, which is an empty unquoted field).
public enum CSVFieldEncoding {
    /// Appends the field for UTF-8 bytes.
    public static func append(_ text: UnsafeBufferPointer<UInt8>, delimiter: UInt8 = UInt8(ascii: ","), to output: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        guard text.isEmpty || text.contains(where: { $0 == delimiter || $0 == quote || $0 == 0x0A || $0 == 0x0D }) else {
            output.append(contentsOf: text)
            return
        }
        output.append(quote)
        var runStart = 0
        for index in 0..<text.count where text[index] == quote {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...index]))
            output.append(quote)
            runStart = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
        output.append(quote)
    }

    /// Appends the field for a string.
    public static func append(_ text: String, delimiter: UInt8 = UInt8(ascii: ","), to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, delimiter: delimiter, to: &output) }
    }
}
