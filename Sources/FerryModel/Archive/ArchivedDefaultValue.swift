/// Default values between the archive's typed objects and the XML's `defaultValueString` text
/// (modelcache-format.md §4.4): integers as bare integers, reals as bare reals, Booleans as bare
/// booleans (YES/NO in the XML; bare 0/1 also occur), strings as strings.
///
/// Numeric and Boolean text is read as Apple's model compiler reads it, which never rejects it
/// (`LenientNumberText`): `YES` on an Integer 32 attribute is archived as 0 (seen in a store),
/// `true` on a Boolean as YES, `NO` on a Double as 0.0.
enum ArchivedDefaultValue {
    /// The XML spelling of an archived default, or nil when it has none or none that XML can spell
    /// (objects of app classes, data; date defaults go to `defaultDateTimeInterval` instead).
    static func text(of value: ArchivedValue, type: AttributeType) -> String? {
        switch value {
        case .null, .opaque, .array, .set, .dictionary, .date, .data: return nil
        case .string(let text): return text
        case .integer(let number): return type == .boolean ? (number != 0 ? "YES" : "NO") : String(number)
        case .bool(let flag): return type == .boolean ? (flag ? "YES" : "NO") : (flag ? "1" : "0")
        case .real(let number): return text(of: number)
        case .uuid(let bytes): return uuidText(bytes)
        }
    }

    /// A real as Swift prints it (`0.0`, `2.5`), which is also how Xcode writes them.
    static func text(of number: Double) -> String { "\(number)" }

    /// The archived form of a default for an attribute type, or nil when the text does not parse
    /// (a UUID that is not one, or a type without text defaults).
    static func value(of text: String, type: AttributeType) -> ArchivedDefault? {
        switch type {
        case .integer16, .integer32, .integer64: return .integer(LenientNumberText.integer(text))
        case .boolean: return .bool(LenientNumberText.boolean(text))
        case .double, .float, .decimal: return .real(LenientNumberText.real(text))
        case .string, .uri: return .string(text)
        case .uuid: return uuidBytes(text).map { .uuid($0) }
        default: return nil
        }
    }

    /// The default an XML `defaultValueString` stands for once compiled, spelled as a decoded
    /// archive spells it: numeric and Boolean text becomes the text of the number the compiler
    /// archives (`YES` on an Integer 32 is `0`, `true` on a Boolean is `YES`, `0` on a Double is
    /// `0.0`), so a model loaded from XML and the same model decoded from a store agree. Other text
    /// is kept as written.
    static func compiledText(_ text: String, type: AttributeType) -> String {
        switch value(of: text, type: type) {
        case .integer(let number)?: self.text(of: .integer(Int128(number)), type: type) ?? text
        case .bool(let flag)?: self.text(of: .bool(flag), type: type) ?? text
        case .real(let number)?: self.text(of: number)
        case .string?, .uuid?, nil: text
        }
    }

    /// What the encoder writes for a default.
    enum ArchivedDefault {
        case integer(Int64)
        case bool(Bool)
        case real(Double)
        case string(String)
        case uuid([UInt8])
    }

    private static func uuidText(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { byte in String(byte, radix: 16, uppercase: true).leftPadded(to: 2) }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }

    private static func uuidBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: "-") })
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for offset in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(decoding: digits[offset..<offset + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
