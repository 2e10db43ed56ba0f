import Testing
@testable import FerryFormats

/// The exact bytes the writers produce.
struct PropertyListWriterTests {
    @Test func binaryLayoutMatchesApple() throws {
        let bytes = try BinaryPropertyListWriter().encode(.array([.string("a"), .string("a"), .integer(1)]))
        let expected: [UInt8] = Array("bplist00".utf8)
            + [0xA3, 1, 1, 2] + [0x51, 0x61] + [0x10, 0x01] // objects at 8, 12, 14
            + [8, 12, 14] // offset table at 16
            + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 3] + [0, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0, 0, 0, 0, 16]
        #expect(bytes == expected)
    }

    @Test func binaryIntegersUseMinimalWidths() throws {
        func objectBytes(_ integer: Int128) throws -> [UInt8] {
            let bytes = try BinaryPropertyListWriter().encode(.integer(integer))
            return Array(bytes[8..<(bytes.count - 32 - 1)])
        }
        #expect(try objectBytes(0) == [0x10, 0])
        #expect(try objectBytes(255) == [0x10, 0xFF])
        #expect(try objectBytes(256) == [0x11, 1, 0])
        #expect(try objectBytes(65_536) == [0x12, 0, 1, 0, 0])
        #expect(try objectBytes(Int128(UInt32.max) + 1) == [0x13, 0, 0, 0, 1, 0, 0, 0, 0])
        #expect(try objectBytes(-1) == [0x13] + Array(repeating: 0xFF, count: 8))
        #expect(try objectBytes(Int128(UInt64.max)) == [0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8))
    }

    @Test func binaryStringsAreASCIIOrUTF16BigEndian() throws {
        let ascii = try BinaryPropertyListWriter().encode(.string("ab"))
        #expect(Array(ascii[8..<11]) == [0x52, 0x61, 0x62])
        let utf16 = try BinaryPropertyListWriter().encode(.string("é😀"))
        #expect(Array(utf16[8..<15]) == [0x63, 0x00, 0xE9, 0xD8, 0x3D, 0xDE, 0x00])
    }

    @Test func binaryLongCountsUseAnIntegerObject() throws {
        let bytes = try BinaryPropertyListWriter().encode(.data(Array(repeating: 7, count: 15)))
        #expect(Array(bytes[8..<11]) == [0x4F, 0x10, 15])
    }

    @Test func binaryOutputIsDeterministicWithSortedKeys() throws {
        var entries: [String: PropertyListValue] = [:]
        for index in 0..<50 { entries["key\(index)"] = .integer(Int128(index)) }
        let first = try BinaryPropertyListWriter().encode(.dictionary(entries))
        let rebuilt = Dictionary(uniqueKeysWithValues: entries.sorted { $0.key > $1.key })
        #expect(try BinaryPropertyListWriter().encode(.dictionary(rebuilt)) == first)
        let keyA = first.firstRange(of: [0x51, UInt8(ascii: "a")])
        let bytes = try BinaryPropertyListWriter().encode(.dictionary(["b": .bool(true), "a": .bool(false), "B": .bool(true)]))
        let positions = ["B", "a", "b"].compactMap { bytes.firstRange(of: [0x51] + Array($0.utf8))?.lowerBound }
        #expect(keyA == nil)
        #expect(positions.count == 3 && positions == positions.sorted())
    }

    @Test func binaryScalarsAreSharedButEquivalentSpellingsAreNot() throws {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        let bytes = try BinaryPropertyListWriter().encode(.array([.string(composed), .string(decomposed), .string(composed), .integer(5), .integer(5)]))
        #expect(bytes[bytes.count - 17] == 4) // the object count: array, two strings, one integer
        guard case .array(let items) = try BinaryPropertyListReader().decode(bytes),
              case .string(let first) = items[0], case .string(let second) = items[1] else { Issue.record("shape"); return }
        #expect(Array(first.unicodeScalars) == Array(composed.unicodeScalars))
        #expect(Array(second.unicodeScalars) == Array(decomposed.unicodeScalars))
    }

    @Test func binaryWriterLimitsDepth() {
        var value = PropertyListValue.bool(true)
        for _ in 0..<10 { value = .array([value]) }
        #expect(throws: PropertyListError.unencodable(reason: "containers nested deeper than 5", keyPath: "/0/0/0/0/0")) {
            try BinaryPropertyListWriter(maxDepth: 5).encode(value)
        }
    }

    @Test func xmlLayoutMatchesApple() throws {
        let value = PropertyListValue.dictionary([
            "b": .array([.integer(42), .bool(false), .real(1.5), .real(2), .date(-781_099_200)]),
            "a": .string("x & <y>"),
            "c": .data([0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33]),
            "d": .dictionary([:]), "e": .array([]), "u": .uid(3),
        ])
        let text = String(decoding: try XMLPropertyListWriter().encode(value), as: UTF8.self)
        #expect(text == """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>a</key>
            \t<string>x &amp; &lt;y&gt;</string>
            \t<key>b</key>
            \t<array>
            \t\t<integer>42</integer>
            \t\t<false/>
            \t\t<real>1.5</real>
            \t\t<real>2</real>
            \t\t<date>1976-04-01T12:00:00Z</date>
            \t</array>
            \t<key>c</key>
            \t<data>
            \tqrvM3QARIjM=
            \t</data>
            \t<key>d</key>
            \t<dict/>
            \t<key>e</key>
            \t<array/>
            \t<key>u</key>
            \t<dict>
            \t\t<key>CF$UID</key>
            \t\t<integer>3</integer>
            \t</dict>
            </dict>
            </plist>

            """)
    }

    @Test func xmlDataWrapsAt76Columns() throws {
        let text = String(decoding: try XMLPropertyListWriter().encode(.data(Array(repeating: 0, count: 120))), as: UTF8.self)
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("AAAA") }
        #expect(lines.map(\.count) == [76, 76, 8])
    }

    @Test func xmlDatesFromYearZeroToNineThousand() throws {
        #expect(PropertyListDate.format(0) == "2001-01-01T00:00:00Z")
        #expect(PropertyListDate.format(-0.5) == "2000-12-31T23:59:59Z")
        #expect(PropertyListDate.format(-63_114_076_800) == "0000-12-30T00:00:00Z")
        #expect(PropertyListDate.format(252_423_993_599) == "9999-12-31T23:59:59Z")
        #expect(PropertyListDate.format(252_423_993_600) == nil)
        #expect(PropertyListDate.parse(Array("2024-02-29T12:34:56Z".utf8)).map(PropertyListDate.format) == "2024-02-29T12:34:56Z")
    }

    @Test func xmlRefusesWhatXMLCannotHold() {
        #expect(throws: PropertyListError.unencodable(reason: "XML property lists have no sets (use the binary format)", keyPath: "/list/1")) {
            try XMLPropertyListWriter().encode(.dictionary(["list": .array([.bool(true), .set([])])]))
        }
        #expect(throws: PropertyListError.unencodable(reason: "U+1 cannot appear in XML 1.0", keyPath: "/k")) {
            try XMLPropertyListWriter().encode(.dictionary(["k": .string("a\u{1}b")]))
        }
        #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().encode(.date(.infinity)) }
        #expect(throws: PropertyListError.self) { try XMLPropertyListWriter().encode(.date(1e13)) }
    }
}
