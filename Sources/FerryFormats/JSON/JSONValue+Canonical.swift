extension JSONValue {
    /// The value's canonical JSON text, in UTF-8: no whitespace, each object's members sorted by
    /// their keys' UTF-8 bytes (members of one key in the order read), strings with only the
    /// escapes JSON requires (`\"`, `\\`, and `\u00xx` for U+0000–U+001F), numbers as written.
    /// Two texts of one value that differ only in layout, member order or escapes have one
    /// canonical text, so a digest of it is kept through reformatting, and changed by any edit of
    /// a key or value.
    public var canonicalText: [UInt8] {
        var text: [UInt8] = []
        appendCanonical(to: &text)
        return text
    }

    private func appendCanonical(to text: inout [UInt8]) {
        switch self {
        case .null: text += "null".utf8
        case .bool(let value): text += (value ? "true" : "false").utf8
        case .number(let number): text += number.text.utf8
        case .string(let string): Self.appendCanonical(string, to: &text)
        case .array(let elements):
            text.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                element.appendCanonical(to: &text)
            }
            text.append(UInt8(ascii: "]"))
        case .object(let members):
            text.append(UInt8(ascii: "{"))
            let sorted = members.enumerated().sorted { a, b in
                a.element.key.utf8.elementsEqual(b.element.key.utf8) ? a.offset < b.offset : a.element.key.utf8.lexicographicallyPrecedes(b.element.key.utf8)
            }
            for (index, member) in sorted.enumerated() {
                if index > 0 { text.append(UInt8(ascii: ",")) }
                Self.appendCanonical(member.element.key, to: &text)
                text.append(UInt8(ascii: ":"))
                member.element.value.appendCanonical(to: &text)
            }
            text.append(UInt8(ascii: "}"))
        }
    }

    private static func appendCanonical(_ string: String, to text: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        text.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += [UInt8(ascii: "\\"), byte]
            case 0..<0x20: text += "\\u00".utf8 + [digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            default: text.append(byte)
            }
        }
        text.append(UInt8(ascii: "\""))
    }
}
