@testable import FerryPostgres
import Testing

@Suite("numeric in binary form, to and from plain decimal text")
struct PostgresNumericTests {
    @Test("round trips keep the text exactly",
          arguments: ["0", "1", "-1", "10000", "12345.6789", "0.0001", "0.00001234", "-98765432109876543210.000000001", "3.14159",
                      "100000000", "0.5", "9999.9999"])
    func roundTrip(text: String) throws {
        let encoded = try #require(PostgresNumeric.encode(text))
        let decoded = try encoded.withUnsafeBytes { bytes in try PostgresNumeric.decode(bytes) }
        #expect(decoded == text)
    }

    @Test("the binary form is PostgreSQL's: digit count, weight, sign, scale, base-10000 digits")
    func layout() throws {
        // 12345.6 → digits [1, 2345, 6000], weight 1, scale 1
        #expect(PostgresNumeric.encode("12345.6") == [0, 3, 0, 1, 0, 0, 0, 1, 0, 1, 0x09, 0x29, 0x17, 0x70])
        // -0.001 → digits [10], weight -1, negative, scale 3
        #expect(PostgresNumeric.encode("-0.001") == [0, 1, 0xFF, 0xFF, 0x40, 0, 0, 3, 0, 10])
    }

    @Test("anything but plain decimal text is refused", arguments: ["", "-", "1e5", "1.", ".5", "abc", "1.2.3", "+1"])
    func refused(text: String) {
        #expect(PostgresNumeric.encode(text) == nil)
    }
}
