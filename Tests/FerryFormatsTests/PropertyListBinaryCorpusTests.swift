import Testing
@testable import FerryFormats

/// Conformance of the binary reader against public corpora (skipped when `../shared/corpus` is absent).
@Suite(.enabled(if: PropertyListCorpus.isAvailable, "needs ../shared/corpus"))
struct PropertyListBinaryCorpusTests {
    let reader = BinaryPropertyListReader()

    @Test(arguments: [
        "fuzz_data/integer_zero_byte_length.plist", "fuzz_data/ascii_string_too_long.plist",
        "fuzz_data/ascii_string_negative_length.plist", "fuzz_data/invalid_offset_ending.plist",
        "fuzz_data/dictionary_invalid_count.plist", "fuzz_data/list_index_out_of_range.plist",
        "fuzz_data/recursive_object_offset.plist", "fuzz_data/invalid_object_offset.plist",
        "fuzz_data/date_seconds_is_nan.plist", "fuzz_data/no_marker_byte.plist",
        "fuzz_data/real_invalid_length.plist", "fuzz_data/array_invalid_count.plist",
        "data/empty_file.plist", "data/bogus_file.plist",
        "data/invalid_object_offset_size.plist", "data/invalid_object_ref_size.plist",
    ])
    func biplistMustFail(_ name: String) throws {
        let bytes = try PropertyListCorpus.bytes(PropertyListCorpus.biplist + "/" + name)
        #expect(throws: PropertyListError.self) { try reader.decode(bytes) }
    }

    @Test func allTwelveFuzzFilesAreListed() throws {
        let fuzz = try PropertyListCorpus.files(in: PropertyListCorpus.biplist + "/fuzz_data", suffix: ".plist")
        #expect(fuzz.count == 12)
        for path in fuzz {
            #expect(throws: PropertyListError.self, "\(path)") { try reader.decode(try PropertyListCorpus.bytes(path)) }
        }
    }

    @Test(arguments: ["binary_circular_array.plist", "binary_zero_offset_size.plist"])
    func rustMustFail(_ name: String) throws {
        let bytes = try PropertyListCorpus.bytes(PropertyListCorpus.rust + "/" + name)
        #expect(throws: PropertyListError.self) { try reader.decode(bytes) }
    }

    @Test func nonStringKeyIsRejected() throws {
        let bytes = try PropertyListCorpus.bytes(PropertyListCorpus.swiftFoundation + "/Test_82142612.bad")
        #expect {
            try reader.decode(bytes)
        } throws: { error in
            guard case .binary(.nonStringKey, _)? = error as? PropertyListError else { return false }
            return true
        }
    }

    @Test func anyVersionByteIsAccepted() throws {
        var bytes = try PropertyListCorpus.bytes(PropertyListCorpus.swiftFoundation + "/Generic_XML_Properties_Binary.plist")
        let original = try reader.decode(bytes)
        bytes[7] = UInt8(ascii: "x")
        #expect(try reader.decode(bytes) == original)
    }

    @Test func rustBinaryValues() throws {
        let value = try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.rust + "/binary.plist"))
        #expect(value["BiggestNumber"] == .integer(Int128(UInt64.max)))
        #expect(value["SmallestNumber"] == .integer(Int128(Int64.min)))
        #expect(value["Height"] == .real(1.6))
        #expect(value["Birthdate"] == .date(PropertyListDate.seconds(year: 1981, month: 5, day: 16, hour: 11, minute: 32, second: 6)))
        #expect(value["Data"] == .data([0, 0, 0, 0xbe, 0, 0, 0, 3, 0, 0, 0, 0x1e, 0, 0, 0]))
        #expect(value["Author"] == .string("William Shakespeare"))
        #expect(value["IsTrue"] == .bool(true))
        #expect(value["EmptyArray"] == .array([]))
        #expect(value["EmptyDictionary"] == .dictionary([:]))
        #expect(value["Lines"] == .array([.string("It is a tale told by an idiot,     "), .string("Full of sound and fury, signifying nothing.")]))
        #expect(value["Blank"] == .string(""))
        guard case .dictionary(let entries) = value else { Issue.record("root is not a dictionary"); return }
        #expect(entries.count == 13)
    }

    @Test func rustUTF16() throws {
        let value = try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.rust + "/utf16_bplist.plist"))
        #expect(value["name"] == .string("★ or better"))
        guard case .string(let poem)? = value["longText"] else { Issue.record("no longText"); return }
        #expect(poem.unicodeScalars.count == 641) // the corpus README says 643; plistlib also counts 641
        #expect(poem.hasSuffix("★"))
    }

    @Test func rustThreeByteOffsetTable() throws {
        let value = try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.rust + "/binary_three_byte_integer_offset_table.plist"))
        guard case .dictionary(let root) = value, case .dictionary(let data)? = root["data"] else {
            Issue.record("unexpected shape"); return
        }
        #expect(root.count == 4)
        #expect(data.count == 2199)
    }

    @Test func rustKeyedArchiverHasUIDs() throws {
        let value = try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.rust + "/binary_NSKeyedArchiver.plist"))
        guard case .dictionary(let top)? = value["$top"] else { Issue.record("no $top"); return }
        #expect(top.values.contains { if case .uid = $0 { true } else { false } })
    }

    @Test func biplistValues() throws {
        func load(_ name: String) throws -> PropertyListValue {
            try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.biplist + "/data/" + name))
        }
        let simple = try load("simple_binary.plist")
        #expect(simple["numberItem"] == .integer(-10_000_000_000_000_000))
        #expect(simple["unicodeItem"] == .string("abc\u{212c}def\u{2133}"))
        #expect(simple["realItem"] == .real(0.47))
        guard case .date(let date)? = simple["dateItem"] else { Issue.record("no dateItem"); return }
        let expected = PropertyListDate.seconds(year: 2010, month: 8, day: 19, hour: 22, minute: 27, second: 30) + 0.385448
        #expect(abs(date - expected) < 2e-6)

        let limits = try load("large_int_limits.plist")
        for limit: Int128 in [Int128(UInt64.max), Int128(Int64.min), Int128(Int64.max)] {
            #expect(limits.containsValue(.integer(limit)), "\(limit)")
        }
        #expect(try load("small_real.plist") == .dictionary(["4 byte real": .real(0.5)]))
        #expect(try load("bool_only_binary.plist") == .bool(false))
        #expect(try load("unicode_root.plist") == .string("Mirror's Edge\u{2122} for iPad"))
        #expect(try load("unicode_empty.plist") == .string(""))
        #expect(try load("sorted.plist").containsValue(where: { if case .set = $0 { true } else { false } }))
        // 0001-01-01 in the Julian calendar that NSCalendar uses before 1582, which is
        // 0000-12-30 in the proleptic Gregorian calendar of plist XML dates.
        #expect(try load("small_date.plist")["MyDate"] == .date(-63_114_076_800))
        #expect(PropertyListDate.seconds(year: 0, month: 12, day: 30, hour: 0, minute: 0, second: 0) == -63_114_076_800)
        _ = try load("BFPersistentEventInfo.plist")
    }

    @Test func nodeValues() throws {
        func load(_ name: String) throws -> PropertyListValue {
            try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.node + "/" + name))
        }
        #expect(try load("uid.bplist")["$top"]?["root"] == .uid(1))
        #expect(try load("utf16_chinese.plist")["CFBundleName"] == .string("天翼阅读"))
        #expect(try load("utf16.bplist")["NSHumanReadableCopyright"] == .string("©2008-2012, sellStuff, Inc."))
        #expect(try load("int64.bplist")["int64item"] == .integer(12_345_678_901_234_567_890))
        #expect(try load("airplay.bplist")["duration"] == .real(5555.0495))
        #expect(try load("airplay.bplist")["position"] == .real(4.626998904))
        _ = try load("sample2.bplist")
    }

    /// ASCII-typed strings holding UTF-8 bytes (plistlib rejects these files): decoded as UTF-8.
    @Test func nodeNonASCIIBytesInASCIIStringsDecodeAsUTF8() throws {
        let itunes = try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.node + "/iTunes-small.bplist"))
        #expect(itunes["Application Version"] == .string("9.0.3"))
        #expect(itunes["Library Persistent ID"] == .string("6F81D37F95101437"))
        #expect(itunes.containsValue(where: { if case .string(let s) = $0 { s.contains("’") } else { false } }))
        let sample = try reader.decode(try PropertyListCorpus.bytes(PropertyListCorpus.node + "/sample1.bplist"))
        #expect(sample["CFBundleIdentifier"] == .string("com.apple.dictionary.MySample"))
        #expect(sample.containsValue(where: { if case .string(let s) = $0 { s.contains("©") } else { false } }))
    }

    @Test func appleKeyedArchivesDecode() throws {
        let archives = try PropertyListCorpus.files(in: PropertyListCorpus.corelibs + "/Fixtures/macOS-10.14", suffix: ".archive")
        #expect(archives.count == 36)
        for path in archives {
            let value = try reader.decode(try PropertyListCorpus.bytes(path))
            #expect(value["$archiver"] == .string("NSKeyedArchiver"), "\(path)")
            // Apple's own output must re-encode to a value-equal plist.
            let writer = BinaryPropertyListWriter()
            #expect(try reader.decode(try writer.encode(value)) == value, "\(path)")
        }
    }
}

extension PropertyListValue {
    /// Whether this value or any value nested in it satisfies `predicate`.
    func containsValue(where predicate: (PropertyListValue) -> Bool) -> Bool {
        if predicate(self) { return true }
        switch self {
        case .array(let items), .set(let items): return items.contains { $0.containsValue(where: predicate) }
        case .dictionary(let entries): return entries.values.contains { $0.containsValue(where: predicate) }
        default: return false
        }
    }

    func containsValue(_ value: PropertyListValue) -> Bool { containsValue { $0 == value } }
}
