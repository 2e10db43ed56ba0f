import FerryMigration
import FerryModel
import Testing

@Suite("text to attribute values straight from bytes")
struct TextCoercionBytesTests {
    private func fromBytes(_ text: String, _ type: AttributeType) -> AttributeValue? {
        Array(text.utf8).withUnsafeBytes { TextCoercion.value(utf8: $0, as: type) }
    }

    private func fromText(_ text: String, _ type: AttributeType) -> AttributeValue? {
        try? TextCoercion.value(text, as: type).get()
    }

    @Test("whatever the byte entry takes, the text entry takes with the same value", arguments: [
        (AttributeType.integer16, ["42", " -7 ", "+5", "++5", "+-5", "32767", "32768", "-32768", "", "+", "-", "1-2", "0x10", "١٢"]),
        (.integer64, ["9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
                      "99999999999999999999", "007", "\t12\t"]),
        (.boolean, ["1", "0", "true", "TRUE", "Yes", "no", "NO ", "2", "maybe", "", "tru", "yess"]),
        (.date, ["2001-01-01T00:00:00Z", "2001-01-01", " 2024-02-29T12:00:00+01:00 ", "2023-02-29", "978307200", "yesterday"]),
        (.binary, ["AAEC/w==", "AAEC\n/w==", " QUJD ", "QQ", "QUJD=", "***", "", "  ", "QR==", "QU J D", "QUI\t="]),
        (.transformable, ["QUI=", "QUI"]),
    ])
    func agreesWithText(type: AttributeType, texts: [String]) {
        for text in texts {
            if let value = fromBytes(text, type) {
                #expect(fromText(text, type) == value, "\(text.debugDescription) as \(type.xcodeName)")
            }
        }
    }

    @Test("the byte entry takes the common forms without a String")
    func takesCommonForms() {
        #expect(fromBytes(" -7 ", .integer32) == .integer(-7))
        #expect(fromBytes("9223372036854775807", .integer64) == .integer(.max))
        #expect(fromBytes("Yes", .boolean) == .bool(true))
        #expect(fromBytes("2001-01-01T00:00:01Z", .date) == .date(1))
        #expect(fromBytes("AAEC\r\n/w==", .binary) == .binary([0, 1, 2, 255]))
        #expect(fromBytes("  ", .binary) == .binary([]))
        #expect(fromBytes("+5", .integer16) == .integer(5) && fromBytes("+-5", .integer16) == nil && fromBytes("++7", .integer64) == nil)
    }

    @Test("the byte entry leaves other types and every failure to the text entry")
    func leavesTheRest() {
        #expect(fromBytes("32768", .integer16) == nil)
        #expect(fromBytes("abc", .integer64) == nil)
        #expect(fromBytes("978307200", .date) == nil)
        #expect(fromBytes("1.5", .double) == nil)
        #expect(fromBytes("a", .string) == nil)
        #expect(fromBytes("https://example.com", .uri) == nil)
    }

    @Test("base64 needs complete padding; the text entry's failures keep their messages")
    func base64Padding() {
        #expect(fromText("QQ==", .binary) == .binary([65]))
        #expect(fromText("QQ", .binary) == nil)
        #expect(fromText("QUJD=", .binary) == nil)
        if case let .failure(failure) = TextCoercion.value("QQ", as: .binary) {
            #expect(failure.reason == "not valid base64 (2 characters; complete padding, no spaces inside, "
                + "and the unused bits of the last character zero, so that the text comes back as given)")
        } else {
            Issue.record("unpadded base64 was accepted")
        }
        if case let .failure(failure) = TextCoercion.value("99999999999999999999", as: .integer64) {
            #expect(failure.reason == "99999999999999999999 is out of range for Integer 64")
        } else {
            Issue.record("an overflowing integer was accepted")
        }
    }
}
