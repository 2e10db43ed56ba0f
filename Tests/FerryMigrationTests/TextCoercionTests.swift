import FerryMigration
import FerryModel
import Testing

@Suite("text to attribute values")
struct TextCoercionTests {
    private func value(_ text: String, _ type: AttributeType, _ options: CoercionOptions = .init()) -> AttributeValue? {
        try? TextCoercion.value(text, as: type, options: options).get()
    }

    private func failure(_ text: String, _ type: AttributeType) -> String? {
        if case let .failure(failure) = TextCoercion.value(text, as: type) { return failure.reason }
        return nil
    }

    @Test("integers are range-checked per type")
    func integers() {
        #expect(value("42", .integer16) == .integer(42))
        #expect(value(" -7 ", .integer32) == .integer(-7))
        #expect(value("+5", .integer64) == .integer(5))
        #expect(value("9223372036854775807", .integer64) == .integer(.max))
        #expect(value("-9223372036854775808", .integer64) == .integer(.min))
        #expect(failure("32768", .integer16) == "32768 is out of range for Integer 16")
        #expect(failure("9223372036854775808", .integer64) == "9223372036854775808 is out of range for Integer 64")
        #expect(failure("abc", .integer32) == "'abc' is not an integer")
        #expect(failure("12.5", .integer32) == "'12.5' is not an integer")
        #expect(failure("0x10", .integer32) != nil)
    }

    @Test("an integer takes one optional sign: '+-5' and '++7' are no integers, as they are no Double or Decimal")
    func integerSigns() {
        #expect(value("-5", .integer16) == .integer(-5))
        for text in ["+-5", "++7", "-+5", "--5", "+-0", "+-9223372036854775808"] {
            #expect(failure(text, .integer64) == "'\(text)' is not an integer")
            #expect(failure(text, .double) != nil && failure(text, .decimal) != nil)
        }
    }

    @Test("booleans accept 1/0, true/false, yes/no in any case")
    func booleans() {
        for text in ["1", "true", "TRUE", "Yes", "YES"] { #expect(value(text, .boolean) == .bool(true)) }
        for text in ["0", "false", "No", "NO"] { #expect(value(text, .boolean) == .bool(false)) }
        #expect(failure("maybe", .boolean) != nil)
        #expect(failure("2", .boolean) != nil)
    }

    @Test("floating point must be finite and numeric")
    func floats() {
        #expect(value("12.50", .double) == .double(12.5))
        #expect(value("-1e3", .float) == .double(-1000))
        #expect(failure("nan", .double) != nil)
        #expect(failure("inf", .double) != nil)
        #expect(failure("1e39", .float) == "1e39 is out of range for Float")
        #expect(failure("n/a", .double) == "'n/a' is not a number")
    }

    @Test("a Float takes what its nearest value keeps: not a whole number past 2^24 or one that underflows (migrate refused those)")
    func floatsAnAppCanRead() {
        #expect(value("16777216", .float) == .double(16_777_216))
        #expect(failure("16777217", .float) == "16777217 has no exact Float value: it would read back as 16777216")
        #expect(failure("1e-46", .float) == "1e-46 is too small for a Float: it would read back as 0")
        // A Float attribute holds the Float's value, as Core Data writes it (not the text's Double).
        #expect(value("0.1", .float) == .double(Double(Float(0.1))))
        #expect(value("1.00000001", .float) == .double(1))
        #expect(value("3.4028235e38", .float) == .double(Double(Float.greatestFiniteMagnitude)))
        // The Double's shortest text of a Float's value, as an export writes it, is that value (it was refused).
        #expect(value("3.4028234663852886e+38", .float) == .double(Double(Float.greatestFiniteMagnitude)))
        #expect(value(Double(Float(123456792)).description, .float) == .double(123456792))
        #expect(failure("123456789.5", .float) == "123456789.5 has no exact Float value: it would read back as 123456792")
        #expect(value("16777217", .double) == .double(16_777_217))
        #expect(value("1e-46", .double) == .double(1e-46))
        // A subnormal Float keeps fewer bits: a value it holds beyond rounding is not the value given.
        #expect(failure("1e-45", .float) == "1e-45 is too small for a Float to keep within rounding: it would read back as 1.401298464324817e-45")
        #expect(value("1.401298464324817e-45", .float) == .double(Double(Float.leastNonzeroMagnitude)))
    }

    @Test("a Unix time outside the years 0 to 9999 is refused: milliseconds read as seconds are named")
    func implausibleUnixTimes() {
        #expect(failure("1388538000000", .date) == "'1388538000000' as seconds since 1970 is outside the years 0 to 9999: if it counts milliseconds, give --date-epoch unix-ms")
        #expect(value("253402300799", .date) == .date(253_402_300_799 - ReferenceDate.unixOffset))
        #expect(failure("253402300800", .date)?.hasPrefix("'253402300800' as seconds since 1970 is outside the years 0 to 9999") == true)
        #expect(value("1388538000000", .date, CoercionOptions(numericDateEpoch: .unixMilliseconds)) == .date(1_388_538_000 - ReferenceDate.unixOffset))
        // Core Data's own seconds (what export writes for such dates) are taken as they are.
        #expect(value("1e15", .date, CoercionOptions(numericDateEpoch: .referenceSeconds)) == .date(1e15))
    }

    @Test("a Double takes what it keeps up to a fraction's rounding: not a whole number past 2^53, nor one that underflows to 0")
    func doublesAnAppCanRead() {
        #expect(value("9007199254740992", .double) == .double(9_007_199_254_740_992))
        #expect(failure("9007199254740993", .double) == "9007199254740993 has no exact Double value: it would read back as 9007199254740992")
        #expect(failure("-18014398509481985", .double) == "-18014398509481985 has no exact Double value: it would read back as -18014398509481984")
        // Whole numbers past 2^63 are compared digit by digit: 2^70 is exact, 10^22 + 1 is not.
        #expect(value("1180591620717411303424", .double) == .double(0x1p70))
        #expect(failure("10000000000000000000001", .double) == "10000000000000000000001 has no exact Double value: it would read back as 10000000000000000000000")
        #expect(failure("123456789012345678901", .double) == "123456789012345678901 has no exact Double value: it would read back as 123456789012345683968")
        #expect(value("+007", .double) == .double(7))
        #expect(value("-0", .double) == .double(-0.0))
        #expect(failure("1e-400", .double) == "1e-400 is too small for a Double: it would read back as 0")
        #expect(failure("-2.5e-350", .double) == "-2.5e-350 is too small for a Double: it would read back as 0")
        // A subnormal Double is taken only as the text it prints as (an export's): 2.5e-324 was
        // stored as 5e-324, twice it, with exit 0, while a Float refused the like.
        #expect(failure("2.5e-324", .double) == "2.5e-324 is too small for a Double to keep within rounding: it would read back as 5e-324")
        #expect(failure("-7.5e-324", .double) == "-7.5e-324 is too small for a Double to keep within rounding: it would read back as -1e-323")
        #expect(value("5e-324", .double) == .double(5e-324) && value("-1.0e-323", .double) == .double(-1e-323))
        #expect(value("2.2250738585072014e-308", .double) == .double(2.2250738585072014e-308))
        #expect(value("1.5e-310", .double) == .double(1.5e-310))
        #expect(value("0e-400", .double) == .double(0))
        #expect(value("0.000", .double) == .double(0))
        // A fraction's rounding is not a change: 0.1, 17 significant digits, a subnormal.
        #expect(value("0.1", .double) == .double(0.1))
        #expect(value("0.10000000000000001", .double) == .double(0.1))
        #expect(value("1e-310", .double) == Double("1e-310").map(AttributeValue.double))
        #expect(failure("20000000000000001", .float) == "20000000000000001 has no exact Float value: it would read back as 20000000545128448")
        // However a whole number is written: with a zero fraction or an exponent.
        #expect(failure("9007199254740993.0", .double) == "9007199254740993.0 has no exact Double value: it would read back as 9007199254740992")
        #expect(failure("9.007199254740993e15", .double) == "9.007199254740993e15 has no exact Double value: it would read back as 9007199254740992")
        #expect(failure("1.6777217e7", .float) == "1.6777217e7 has no exact Float value: it would read back as 16777216")
        // A Double whose shortest text is the number reads back as it: 1e23 is 1e+23 to an app.
        #expect(value("1e23", .double) == .double(1e23))
        #expect(value("100000000000000000000000", .double) == .double(1e23))
        // A fraction rounds: not a change; a whole part that changes is.
        #expect(value("16777217.5", .float) == .double(16_777_218))
        #expect(value("-16777217.5", .float) == .double(-16_777_218))
        #expect(value("9007199254740993.5", .double) == .double(9_007_199_254_740_994))
        #expect(failure("18014398509481985.5", .double) == "18014398509481985.5 has no exact Double value: it would read back as 18014398509481984")
    }

    @Test("decimals keep their exact digits, and only those a store keeps unchanged are taken")
    func decimals() {
        #expect(value("0.1", .decimal) == .decimal("0.1"))
        #expect(value("-012.500", .decimal) == .decimal("-12.5"))
        #expect(value("1.5e3", .decimal) == .decimal("1500"))
        #expect(value("0.30000000000000004", .decimal) == .decimal("0.30000000000000004"))
        #expect(value("1e20", .decimal) == .decimal("100000000000000000000"))
        // A store keeps a Decimal as a real: these would read back as other numbers.
        #expect(failure("12345678901234567890.123456789", .decimal)
                == "12345678901234567890.123456789 has more significant digits than a store's Decimal (a real) keeps: it would read back as 12345678901234567000")
        #expect(failure("99999999999999999999", .decimal)?.hasSuffix("it would read back as 100000000000000000000") == true)
        #expect(failure("1e400", .decimal)?.hasSuffix("is beyond the range of a store's Decimal (a real)") == true)
        #expect(value("-0.0", .decimal) == .decimal("0"))
        #expect(value("2e-3", .decimal) == .decimal("0.002"))
        #expect(failure("1.2.3", .decimal) != nil)
        #expect(failure(".", .decimal) != nil)
    }

    @Test("dates: ISO 8601 forms and numbers on the chosen epoch")
    func dates() {
        #expect(value("2001-01-01T00:00:00Z", .date) == .date(0))
        #expect(value("2001-01-01", .date) == .date(0))
        #expect(value("2001-01-01T01:00:00+01:00", .date) == .date(0))
        #expect(value("2000-12-31T19:00:00-0500", .date) == .date(0))
        #expect(value("2001-01-01 00:00:01.5", .date) == .date(1.5))
        #expect(value("1970-01-01T00:00:00Z", .date) == .date(-978_307_200))
        #expect(value("2024-02-29T12:00:00Z", .date) == .date(1_709_208_000 - 978_307_200))
        #expect(value("978307200", .date) == .date(0))
        #expect(value("978307200000", .date, .init(numericDateEpoch: .unixMilliseconds)) == .date(0))
        #expect(value("60", .date, .init(numericDateEpoch: .referenceSeconds)) == .date(60))
        #expect(failure("2023-02-29", .date) != nil)
        #expect(failure("2023-13-01", .date) != nil)
        #expect(failure("yesterday", .date) != nil)
        #expect(failure("2023-01-01T10:00:00+25:00", .date) != nil)
        // Second 60 (a leap second, or a minute rolled over) has no instant: never the next minute.
        #expect(value("2014-01-02T10:30:59Z", .date) == .date(410_351_459))
        #expect(failure("2014-01-02T10:30:60Z", .date) == "'2014-01-02T10:30:60Z' has second 60 (a leap second): a date cannot hold it")
        #expect(failure("2015-06-30T23:59:60.5+08:00", .date) == "'2015-06-30T23:59:60.5+08:00' has second 60 (a leap second): a date cannot hold it")
        #expect(failure("2014-01-02T10:30:61Z", .date) == "'2014-01-02T10:30:61Z' is not a date (ISO 8601, or a number of seconds since 1970)")
        // The message names the epoch in use, and a number no Double holds says so (it said
        // "not a date (… seconds since 1970)" under --date-epoch reference).
        func epochFailure(_ text: String, epoch: CoercionOptions.NumericDateEpoch) -> String? {
            if case let .failure(failure) = TextCoercion.value(text, as: .date, options: .init(numericDateEpoch: epoch)) { return failure.reason }
            return nil
        }
        #expect(epochFailure("soon", epoch: .referenceSeconds) == "'soon' is not a date (ISO 8601, or a number of seconds since 2001 (--date-epoch reference))")
        #expect(epochFailure("31556889832780799", epoch: .referenceSeconds)
                == "not a date as seconds since 2001 (--date-epoch reference): 31556889832780799 has no exact Double value: it would read back as 31556889832780800")
    }

    @Test("UUIDs, URIs and base64")
    func identifiersAndBytes() throws {
        let uuid = try #require(UUIDBytes(string: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"))
        #expect(value("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", .uuid) == .uuid(uuid))
        #expect(uuid.description == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(failure("E621E1F8C36C495A93FC0C247A3E6E5F", .uuid) != nil)
        #expect(failure("E621E1F8-C36C-495A-93FC-0C247A3E6E5G", .uuid) != nil)
        #expect(value("https://example.com/a?b=1", .uri) == .uri("https://example.com/a?b=1"))
        #expect(value("x-coredata://1/Upload/p1", .uri) == .uri("x-coredata://1/Upload/p1"))
        #expect(failure("/relative/path", .uri) != nil)
        #expect(failure("has space:x y", .uri) != nil)
        // Text no URL parser takes: an IP literal never closed, an escape that is not one.
        for bad in ["http://[::1", "http://[::1/x]", "http://[::1]x/", "a:%zz", "a:b%2", "a:b\u{7F}"] {
            #expect(failure(bad, .uri) != nil, "\(bad)")
        }
        for good in ["http://[::1]/", "http://[::1]:8080/a?b#c", "mailto:a%40b.c", "urn:isbn:0451450523", "http://a/[x]"] {
            #expect(value(good, .uri) == .uri(good), "\(good)")
        }
        #expect(value("AAEC/w==", .binary) == .binary([0, 1, 2, 255]))
        #expect(value("AAEC\n/w==", .binary) == .binary([0, 1, 2, 255]))
        #expect(failure("***", .binary) != nil)
        #expect(failure("AAE*C/w==", .binary) != nil)
    }

    @Test("Binary takes only base64 its bytes encode back to: spaces inside or unused bits set are refused, line breaks kept out")
    func canonicalBase64() {
        #expect(value("AAEC\r\n/w==", .binary) == .binary([0, 1, 2, 255]))
        #expect(value(" QUJD ", .binary) == .binary([65, 66, 67]))
        // Plain text whose letters happen to be base64 without the spaces: not bytes.
        #expect(failure("Send 2 boxes to Anna", .binary) != nil)
        #expect(failure("QUJD\tQQ==", .binary) != nil)
        // Unused bits set: the bytes would export as `…qA==` and `QQ==`, another text.
        #expect(failure("abcdefghijklmnopqB==", .binary) != nil)
        #expect(value("abcdefghijklmnopqA==", .binary) != nil)
        #expect(failure("QR==", .binary) != nil && value("QQ==", .binary) == .binary([65]))
        #expect(failure("QUJ=", .binary) != nil && value("QUI=", .binary) == .binary([65, 66]))
        #expect(failure("QUJ=", .transformable) != nil)
    }

    @Test("strings are kept exactly, spaces included")
    func strings() {
        #expect(value("  a, \"b\"\n中文 🚀 ", .string) == .string("  a, \"b\"\n中文 🚀 "))
    }
}
