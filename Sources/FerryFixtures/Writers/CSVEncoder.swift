/// Writes records as RFC 4180 CSV rows (see `FixtureFormat.csv`).
enum CSVEncoder {
    static func header(_ names: [String], into out: inout [UInt8]) {
        for (index, name) in names.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendField(name, into: &out)
        }
        out += [13, 10]
    }

    static func record<Record: FixtureRecord>(_ record: Record, fieldCount: Int, into out: inout [UInt8]) {
        for index in 0..<fieldCount {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            switch record.value(ofField: index) {
            case .absent: break
            case .text(let text): appendField(text, into: &out)
            case .integer(let value): out.append(decimal: value)
            case .boolean(let value): out.append(UInt8(ascii: value ? "1" : "0"))
            case .bytes(let bytes): Base64.append(bytes, bytes.indices, to: &out)
            case .texts(let texts): appendField(texts.joined(separator: ";"), into: &out)
            }
        }
        out += [13, 10]
    }

    /// Appends `text`, quoted (with quotes doubled) when it holds a comma, quote, CR or LF, and
    /// as `""` when it is empty, so that readers can tell the empty string from an absent value.
    private static func appendField(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            let needsQuotes = bytes.isEmpty || bytes.contains { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }
            guard needsQuotes else {
                out.append(contentsOf: bytes)
                return
            }
            out.append(34)
            for byte in bytes {
                if byte == 34 { out.append(34) }
                out.append(byte)
            }
            out.append(34)
        }
    }
}
