/// Entry points that pick the property list format by looking at the bytes.
public enum PropertyList {
    /// Decodes a binary (`bplist0?`) or XML property list, chosen by the leading bytes.
    /// - Throws: `PropertyListError` (`.unrecognizedFormat` when the bytes look like neither).
    public static func decode(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        if BinaryPropertyListReader.hasBinaryHeader(bytes) {
            return try BinaryPropertyListReader().decode(bytes)
        }
        guard looksLikeXML(bytes) else { throw .unrecognizedFormat }
        return try XMLPropertyListReader().decode(bytes)
    }

    /// A UTF-16 byte-order mark or a `<` as the first 16-bit unit, or `<` as the first byte after
    /// an optional UTF-8 byte-order mark and whitespace.
    static func looksLikeXML(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || bytes.starts(with: [0x00, 0x3C]) || bytes.starts(with: [0x3C, 0x00]) {
            return true
        }
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        return body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } == UInt8(ascii: "<")
    }
}
