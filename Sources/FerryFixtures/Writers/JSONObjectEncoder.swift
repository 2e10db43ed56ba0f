/// Writes records as single-line JSON objects (see `FixtureFormat.ndjson` and `.jsonArray`).
enum JSONObjectEncoder {
    /// `"name":` for each field, escaped once.
    static func keys(_ names: [String]) -> [[UInt8]] {
        names.map { name in
            var key: [UInt8] = []
            appendString(name, into: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    static func record<Record: FixtureRecord>(_ record: Record, keys: [[UInt8]], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        for index in keys.indices {
            let value = record.value(ofField: index)
            if case .absent = value { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out += keys[index]
            switch value {
            case .absent: break
            case .text(let text): appendString(text, into: &out)
            case .integer(let number): out.append(decimal: number)
            case .boolean(let flag): out.append(utf8: flag ? "true" : "false")
            case .bytes(let bytes):
                out.append(34)
                Base64.append(bytes, bytes.indices, to: &out)
                out.append(34)
            case .texts(let texts):
                out.append(UInt8(ascii: "["))
                for (k, text) in texts.enumerated() {
                    if k > 0 { out.append(UInt8(ascii: ",")) }
                    appendString(text, into: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string: quote, backslash and control characters escaped,
    /// everything else as raw UTF-8.
    private static func appendString(_ text: String, into out: inout [UInt8]) {
        var text = text
        out.append(34)
        text.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case 34: out += [92, 34]
                case 92: out += [92, 92]
                case 10: out += [92, UInt8(ascii: "n")]
                case 13: out += [92, UInt8(ascii: "r")]
                case 9: out += [92, UInt8(ascii: "t")]
                case 0..<32: out += [92, UInt8(ascii: "u"), 48, 48, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]]
                default: out.append(byte)
                }
            }
        }
        out.append(34)
    }
}
