import Testing
@testable import FerryFormats

/// Values of every kind survive writing and reading back, in both formats.
struct PropertyListRoundTripTests {
    static let integers: [Int128] = [
        0, 1, 14, 15, 255, 256, 65_535, 65_536, Int128(UInt32.max), Int128(UInt32.max) + 1,
        Int128(Int64.max), Int128(Int64.max) + 1, Int128(UInt64.max), Int128(UInt64.max) + 1,
        -1, -255, Int128(Int64.min), Int128(Int64.min) - 1, Int128.min, Int128.max,
    ]
    static let reals: [Double] = [0, -0.0, 1, 1.5, 1.6, -2.25, .pi, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, 1e16, 123_456_789.125]
    static let strings: [String] = [
        "", "plain ASCII", "tab\tnew\nline\r\ncarriage\rreturn", "<&>\"'", "café", "天翼阅读", "★ or better", "😀 emoji",
        String(repeating: "long ", count: 100), "e\u{301} decomposed", "\u{7F} delete",
    ]

    /// Everything both formats can hold: no sets; dates in whole seconds (XML drops fractions).
    static let sample: PropertyListValue = .dictionary([
        "integers": .array(integers.map(PropertyListValue.integer)),
        "reals": .array(reals.map(PropertyListValue.real)),
        "strings": .array(strings.map(PropertyListValue.string)),
        "bools": .array([.bool(true), .bool(false), .bool(true)]),
        "dates": .array([.date(0), .date(-1), .date(1_000_000_000), .date(-63_114_076_800), .date(252_423_993_599)]),
        "data": .array([.data([]), .data([0]), .data([1, 2]), .data(Array(0...255)), .data(Array(repeating: 0xAB, count: 1000))]),
        "uids": .array([.uid(0), .uid(1), .uid(255), .uid(256), .uid(UInt64(UInt32.max) + 1), .uid(UInt64.max)]),
        "empty": .dictionary(["array": .array([]), "dict": .dictionary([:]), "string": .string("")]),
        "nested": .array([.array([.array([.dictionary(["deep": .array([.integer(1)])])])])]),
        "": .string("empty key"),
        "unicode key ☺": .bool(true),
        "shared": .array(Array(repeating: .string("same"), count: 20)),
    ])

    @Test func binaryRoundTrip() throws {
        let bytes = try BinaryPropertyListWriter().encode(Self.sample)
        #expect(try BinaryPropertyListReader().decode(bytes) == Self.sample)
    }

    @Test func xmlRoundTrip() throws {
        let bytes = try XMLPropertyListWriter().encode(Self.sample)
        #expect(try XMLPropertyListReader().decode(bytes) == Self.sample)
    }

    @Test func binaryOnlyKinds() throws {
        let value = PropertyListValue.array([
            .set([.integer(1), .string("two")]), .date(0.5), .date(-0.25), .date(1e-7),
            .real(.nan),
        ])
        let decoded = try BinaryPropertyListReader().decode(try BinaryPropertyListWriter().encode(value))
        guard case .array(let items) = decoded, items.count == 5, case .real(let nan) = items[4] else {
            Issue.record("unexpected \(decoded)"); return
        }
        #expect(Array(items[0..<4]) == [.set([.integer(1), .string("two")]), .date(0.5), .date(-0.25), .date(1e-7)])
        #expect(nan.isNaN)
    }

    @Test func nanRoundTripsThroughXML() throws {
        let decoded = try XMLPropertyListReader().decode(try XMLPropertyListWriter().encode(.real(.nan)))
        guard case .real(let value) = decoded else { Issue.record("not a real"); return }
        #expect(value.isNaN)
    }

    @Test(arguments: integers)
    func integerThroughBothFormats(_ integer: Int128) throws {
        let binary = try BinaryPropertyListWriter().encode(.integer(integer))
        #expect(try BinaryPropertyListReader().decode(binary) == .integer(integer))
        let xml = try XMLPropertyListWriter().encode(.integer(integer))
        #expect(try XMLPropertyListReader().decode(xml) == .integer(integer))
    }

    @Test func xmlDropsFractionalSecondsDownward() throws {
        let decoded = try XMLPropertyListReader().decode(try XMLPropertyListWriter().encode(.array([.date(1.75), .date(-1.25)])))
        #expect(decoded == .array([.date(1), .date(-2)]))
    }

    @Test func conveniencesSniffTheFormat() throws {
        #expect(try PropertyList.decode(try BinaryPropertyListWriter().encode(Self.sample)) == Self.sample)
        #expect(try PropertyList.decode(try XMLPropertyListWriter().encode(Self.sample)) == Self.sample)
        #expect(try PropertyList.decode(Array("\u{FEFF}\n  <plist><true/></plist>".utf8)) == .bool(true))
        #expect(throws: PropertyListError.unrecognizedFormat) { try PropertyList.decode([]) }
        #expect(throws: PropertyListError.unrecognizedFormat) { try PropertyList.decode(Array("{ a = b; }".utf8)) }
    }
}
