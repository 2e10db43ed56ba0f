/// Writes XML property lists as Apple's writer does: the XML declaration and `DOCTYPE` line,
/// `<plist version="1.0">`, one tab per nesting level, dictionary keys sorted by UTF-16 code units,
/// dates as `yyyy-MM-ddTHH:mm:ssZ` (fraction dropped), data as base64 in lines of at most 76
/// columns (a tab counting 8), reals as `nan` / `+infinity` / `-infinity` or the shortest decimal
/// that reads back exactly (a real no `Double` holds as it was read), UIDs as
/// `<dict><key>CF$UID</key><integer>…</integer></dict>`.
///
/// Beyond Apple's writer, a carriage return in text is written as `&#13;` so that it survives
/// XML line-end normalisation. Values XML cannot hold are errors rather than broken output:
/// sets, strings with characters XML 1.0 forbids (most C0 controls, U+FFFE, U+FFFF), and dates
/// outside years 0...9999.
public struct XMLPropertyListWriter: Sendable {
    /// The deepest nesting of arrays and dictionaries that is written.
    public var maxDepth: Int

    public init(maxDepth: Int = BinaryPropertyListReader.defaultMaxDepth) {
        self.maxDepth = maxDepth
    }

    private static let prologue = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    /// Encodes `value` as a complete UTF-8 XML property list.
    /// - Throws: `PropertyListError.unencodable` with the key path of a value XML cannot hold.
    public func encode(_ value: PropertyListValue) throws(PropertyListError) -> [UInt8] {
        var output = Self.prologue
        try append(value, indent: 0, to: &output)
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    private func append(_ value: PropertyListValue, indent: Int, to output: inout [UInt8]) throws(PropertyListError) {
        switch value {
        case .string(let string):
            try Self.appendElement("string", escaping: string, indent: indent, to: &output)
        case .integer(let integer):
            Self.appendElement("integer", text: String(integer), indent: indent, to: &output)
        case .real(let real):
            Self.appendElement("real", text: Self.text(of: real), indent: indent, to: &output)
        case .unrepresentableReal(let text):
            try Self.appendElement("real", escaping: text, indent: indent, to: &output)
        case .bool(let bool):
            Self.appendLine(bool ? "<true/>" : "<false/>", indent: indent, to: &output)
        case .date(let seconds):
            guard let text = PropertyListDate.format(seconds) else {
                throw .unencodable(reason: "date \(seconds) is outside years 0...9999 or not finite", keyPath: "/")
            }
            Self.appendElement("date", text: text, indent: indent, to: &output)
        case .data(let bytes):
            Self.appendData(bytes, indent: indent, to: &output)
        case .uid(let uid):
            try append(.dictionary(["CF$UID": .integer(Int128(uid))]), indent: indent, to: &output)
        case .set:
            throw .unencodable(reason: "XML property lists have no sets (use the binary format)", keyPath: "/")
        case .array(let items):
            guard !items.isEmpty else { return Self.appendLine("<array/>", indent: indent, to: &output) }
            try checkDepth(indent)
            Self.appendLine("<array>", indent: indent, to: &output)
            for (position, item) in items.enumerated() {
                do throws(PropertyListError) {
                    try append(item, indent: indent + 1, to: &output)
                } catch {
                    throw error.nested(in: String(position))
                }
            }
            Self.appendLine("</array>", indent: indent, to: &output)
        case .dictionary(let entries):
            guard !entries.isEmpty else { return Self.appendLine("<dict/>", indent: indent, to: &output) }
            try checkDepth(indent)
            Self.appendLine("<dict>", indent: indent, to: &output)
            for entry in PropertyListKeyOrder.sorted(entries) {
                do throws(PropertyListError) {
                    try Self.appendElement("key", escaping: entry.key, indent: indent + 1, to: &output)
                    try append(entry.value, indent: indent + 1, to: &output)
                } catch {
                    throw error.nested(in: entry.key)
                }
            }
            Self.appendLine("</dict>", indent: indent, to: &output)
        }
    }

    private func checkDepth(_ depth: Int) throws(PropertyListError) {
        guard depth < maxDepth else { throw .unencodable(reason: "containers nested deeper than \(maxDepth)", keyPath: "/") }
    }

    /// `nan`, `+infinity`, `-infinity`, or the shortest round-tripping decimal without a
    /// trailing `.0` (`1`, `1.6`, `1e+100`).
    static func text(of real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        let text = real.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }

    private static func appendIndent(_ indent: Int, to output: inout [UInt8]) {
        output.append(contentsOf: repeatElement(UInt8(ascii: "\t"), count: indent))
    }

    private static func appendLine(_ line: String, indent: Int, to output: inout [UInt8]) {
        appendIndent(indent, to: &output)
        output.append(contentsOf: line.utf8)
        output.append(UInt8(ascii: "\n"))
    }

    /// `<name>text</name>` for text that needs no escaping (numbers, dates).
    private static func appendElement(_ name: String, text: String, indent: Int, to output: inout [UInt8]) {
        appendLine("<\(name)>\(text)</\(name)>", indent: indent, to: &output)
    }

    private static func appendElement(_ name: String, escaping text: String, indent: Int, to output: inout [UInt8]) throws(PropertyListError) {
        appendIndent(indent, to: &output)
        output.append(contentsOf: "<\(name)>".utf8)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output.append(contentsOf: "&amp;".utf8)
            case 0x3C: output.append(contentsOf: "&lt;".utf8)
            case 0x3E: output.append(contentsOf: "&gt;".utf8)
            case 0x0D: output.append(contentsOf: "&#13;".utf8)
            case 0x09, 0x0A, 0x20..<0x80: output.append(UInt8(scalar.value))
            case 0..<0x20, 0xFFFE, 0xFFFF:
                throw .unencodable(reason: "U+\(String(scalar.value, radix: 16, uppercase: true)) cannot appear in XML 1.0", keyPath: "/")
            default: output.append(contentsOf: String(scalar).utf8)
            }
        }
        output.append(contentsOf: "</\(name)>\n".utf8)
    }

    /// Base64 lines at the indentation of `<data>`, at most 76 columns with a tab counted as 8.
    private static func appendData(_ bytes: [UInt8], indent: Int, to output: inout [UInt8]) {
        appendLine("<data>", indent: indent, to: &output)
        let encoded = PropertyListBase64.encode(bytes)
        let lineLength = max(4, (76 - 8 * indent) / 4 * 4)
        var start = 0
        while start < encoded.count {
            let end = min(start + lineLength, encoded.count)
            appendIndent(indent, to: &output)
            output.append(contentsOf: encoded[start..<end])
            output.append(UInt8(ascii: "\n"))
            start = end
        }
        appendLine("</data>", indent: indent, to: &output)
    }
}
