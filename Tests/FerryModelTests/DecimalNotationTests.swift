import FerryModel
import Testing

/// The plain form of decimal literals and doubles (`DecimalNotation`), which every Decimal value
/// Ferry reads, converts or compares goes through.
@Suite("Decimal numbers in plain form")
struct DecimalNotationTests {
    @Test("literals in plain form: sign, no exponent, no zeros before the point or after the last digit", arguments: [
        ("12.50", "12.5"), ("-12.50", "-12.5"), ("+7", "7"), ("0", "0"), ("-0", "0"), ("-0.000", "0"), ("000", "0"),
        ("00012.3400", "12.34"), (".5", "0.5"), ("-.5", "-0.5"), ("5.", "5"), ("1e-05", "0.00001"), ("1E5", "100000"),
        ("1.5e3", "1500"), ("12.5e-1", "1.25"), ("1e+005", "100000"), ("0.00e9", "0"), ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("-1.000000000000000000001", "-1.000000000000000000001"), ("1e400", "1" + String(repeating: "0", count: 400)),
    ])
    func literals(literal: String, plain: String) {
        #expect(DecimalNotation.plain(literal.utf8) == plain)
        // Through another collection than a string's contiguous bytes: the same answer.
        #expect(DecimalNotation.plain(Array(literal.utf8).reversed().reversed()) == plain)
    }

    @Test("what is no decimal literal is nil", arguments: [
        "", "-", "+", ".", "-.", "e5", "1e", "1e+", "1e401", "1e-401", "1.2.3", "1,5", "1 ", " 1", "0x10", "1e5e3", "١٢", "++1", "1-", "nan", "inf",
    ])
    func notLiterals(literal: String) {
        #expect(DecimalNotation.plain(literal.utf8) == nil)
    }

    @Test("a double's plain form reads back as the same double, for doubles of every size")
    func doublesRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 1e-300, 5e-324, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 12.5, 1048576]
        for _ in 0..<2_000 { values.append(Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 0...2045) << 52))) }
        for value in values {
            guard let plain = DecimalNotation.plain(value) else {
                Issue.record("no plain form of \(value)")
                continue
            }
            #expect(Double(plain) == value, "\(value) → \(plain)")
            #expect(!plain.contains("e") && !plain.hasSuffix(".") && !(plain.contains(".") && plain.hasSuffix("0")), "\(plain)")
        }
        #expect(DecimalNotation.plain(Double.nan) == nil && DecimalNotation.plain(Double.infinity) == nil)
    }
}
