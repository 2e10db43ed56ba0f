import FerryMigration
import FerryModel
import Testing

/// Values crossing a type change of the chain: a migration may round as an import does, never
/// make up a value or change one past a fraction's rounding.
@Suite("values across type changes")
struct ValueConversionTests {
    private func converted(_ value: AttributeValue, _ from: AttributeType, _ to: AttributeType) -> AttributeValue? {
        try? ValueConversion.convert(value, from: from, to: to).get()
    }

    private func failure(_ value: AttributeValue, _ from: AttributeType, _ to: AttributeType) -> String? {
        if case .failure(let failure) = ValueConversion.convert(value, from: from, to: to) { return failure.reason }
        return nil
    }

    @Test("bytes have no text: a Binary value reaching a String (a rule of mixed types) is refused, not written as '<N bytes>'")
    func binaryIsNoText() {
        #expect(failure(.binary([1, 2, 3]), .binary, .string)?.contains("a Binary value (3 bytes) cannot become String") == true)
        #expect(converted(.uuid(UUIDBytes(string: "00000000-0000-0000-0000-000000000001")!), .uuid, .string)
                == .string("00000000-0000-0000-0000-000000000001"))
        #expect(converted(.integer(7), .integer64, .string) == .string("7"))
    }

    @Test("a Date no ISO 8601 text holds (1e300 seconds, a store's REAL) does not become String text: its record is rejected with why (it became \"1e+300\")")
    func unwritableDateIsNoText() {
        #expect(failure(.date(1e300), .date, .string) == "a Date of 1e+300 seconds since 2001 has no ISO 8601 text (its year is past ±999999)")
        #expect(failure(.date(-.infinity), .date, .string)?.contains("has no ISO 8601 text") == true)
        #expect(converted(.date(0), .date, .string) == .string("2001-01-01T00:00:00.000Z"))
    }

    @Test("text that is a number does not become a Date: its epoch is not knowable (Core Data's seconds were read as Unix ones)")
    func numberTextIsNoDate() {
        // XCServer's queuedDate: the record's own instant as seconds since 2001 became 1986.
        #expect(failure(.string("521561042.614"), .string, .date)?.hasPrefix("'521561042.614' is a number, and which epoch it counts from is not knowable") == true)
        #expect(failure(.string("0"), .string, .date) != nil && failure(.string("1e9"), .string, .date) != nil)
        // Spaces around it, which the text rules trim, do not make it a date either.
        #expect(failure(.string(" 521561042"), .string, .date)?.contains("is a number") == true)
        #expect(failure(.string("521561042 "), .string, .date)?.contains("is a number") == true)
        #expect(converted(.string("2017-07-12T14:04:02.614Z"), .string, .date) == .date(521_561_042.614))
        #expect(converted(.string("2001-01-01"), .string, .date) == .date(0))
        #expect(failure(.string("soon"), .string, .date)?.contains("is not a date") == true)
    }

    @Test("Double and Decimal to Float round as an import does; underflow to 0 and whole numbers the Float does not hold are refused")
    func floatRounding() {
        #expect(converted(.double(0.1), .double, .float) == .double(Double(Float(0.1))))
        #expect(converted(.double(16777216), .double, .float) == .double(16777216))
        #expect(converted(.double(16777216.5), .double, .float) == .double(16777216))
        #expect(failure(.double(1e-50), .double, .float)?.contains("too small for a Float") == true)
        #expect(failure(.double(16777217), .double, .float)?.contains("no exact Float value") == true)
        #expect(failure(.double(.infinity), .double, .float) != nil)
        #expect(converted(.decimal("12.5"), .decimal, .float) == .double(12.5))
        #expect(failure(.decimal("16777217"), .decimal, .float)?.contains("no exact Float value") == true)
        #expect(failure(.decimal("9007199254740993"), .decimal, .double)?.contains("no exact Double value") == true)
        #expect(converted(.decimal("0.1"), .decimal, .double) == .double(0.1))
    }

    @Test("Double to Float refuses a value a subnormal Float holds beyond rounding (1e-45 became 1.4e-45, +40%)")
    func subnormalFloats() {
        for number in [1e-45, 3e-45, 1e-40, -1e-40] {
            #expect(failure(.double(number), .double, .float) == "\(number) is too small for a Float to keep within rounding: "
                    + "it would read back as \(Double(Float(number)))")
        }
        // A value a subnormal Float holds exactly, and the smallest normal one, cross as they are.
        let least = Double(Float.leastNonzeroMagnitude), normal = Double(Float.leastNormalMagnitude)
        #expect(converted(.double(least), .double, .float) == .double(least))
        #expect(converted(.double(normal), .double, .float) == .double(normal))
        #expect(converted(.double(1.5e-38), .double, .float) == .double(Double(Float(1.5e-38))))
        #expect(failure(.decimal("1e-40"), .decimal, .float)?.contains("too small for a Float to keep within rounding") == true)
    }
}
