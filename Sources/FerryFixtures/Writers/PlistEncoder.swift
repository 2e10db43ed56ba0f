/// Writes records as dictionaries of an XML property list (see `FixtureFormat.xmlPlist`).
enum PlistEncoder {
    static let prologue = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <array>

        """.utf8)
    static let epilogue = Array("</array>\n</plist>\n".utf8)

    /// `\t\t<key>name</key>\n` for each field, escaped once.
    static func keys(_ names: [String]) -> [[UInt8]] {
        names.map { name in
            var key = Array("\t\t<key>".utf8)
            appendEscaped(name, into: &key)
            key += Array("</key>\n".utf8)
            return key
        }
    }

    static func record<Record: FixtureRecord>(_ record: Record, keys: [[UInt8]], into out: inout [UInt8]) {
        out.append(utf8: "\t<dict>\n")
        for index in keys.indices {
            let value = record.value(ofField: index)
            if case .absent = value { continue }
            out += keys[index]
            switch value {
            case .absent: break
            case .text(let text): appendString(text, indent: "\t\t", into: &out)
            case .integer(let number):
                out.append(utf8: "\t\t<integer>")
                out.append(decimal: number)
                out.append(utf8: "</integer>\n")
            case .boolean(let flag): out.append(utf8: flag ? "\t\t<true/>\n" : "\t\t<false/>\n")
            case .bytes(let bytes): appendData(bytes, into: &out)
            case .texts(let texts):
                if texts.isEmpty {
                    out.append(utf8: "\t\t<array/>\n")
                } else {
                    out.append(utf8: "\t\t<array>\n")
                    for text in texts { appendString(text, indent: "\t\t\t", into: &out) }
                    out.append(utf8: "\t\t</array>\n")
                }
            }
        }
        out.append(utf8: "\t</dict>\n")
    }

    private static func appendString(_ text: String, indent: String, into out: inout [UInt8]) {
        out.append(utf8: indent)
        out.append(utf8: "<string>")
        appendEscaped(text, into: &out)
        out.append(utf8: "</string>\n")
    }

    /// `<data>` with base64 in lines of at most 76 characters, as CFPropertyList writes it.
    private static func appendData(_ bytes: [UInt8], into out: inout [UInt8]) {
        out.append(utf8: "\t\t<data>\n")
        var start = 0
        while start < bytes.count {
            let end = min(start + 57, bytes.count)
            out.append(utf8: "\t\t")
            Base64.append(bytes, start..<end, to: &out)
            out.append(10)
            start = end
        }
        out.append(utf8: "\t\t</data>\n")
    }

    /// Appends `text` with `&`, `<` and `>` escaped.
    private static func appendEscaped(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case 38: out.append(utf8: "&amp;")
                case 60: out.append(utf8: "&lt;")
                case 62: out.append(utf8: "&gt;")
                default: out.append(byte)
                }
            }
        }
    }
}
