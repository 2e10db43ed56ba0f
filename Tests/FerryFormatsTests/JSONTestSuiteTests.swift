import FerryFormats
import FerryTestSupport
import Testing

/// nst/JSONTestSuite: the file-name prefix is the oracle. `y_` files must be accepted, `n_` files
/// rejected. For `i_` files (either is allowed) our choices are pinned in ``implementationDefined``:
///
/// - Numbers of any magnitude are accepted: ``JSONNumber`` keeps the exact text, `int64` is `nil`
///   out of range and `double` is `nil` on overflow (zero on underflow).
/// - Escaped lone or inverted surrogates are rejected: they cannot become Unicode text losslessly.
/// - Invalid UTF-8 (overlong forms, encoded surrogates, beyond U+10FFFF, Latin-1 bytes, truncated
///   sequences) is rejected.
/// - A UTF-8 byte order mark is skipped; UTF-16 with a byte order mark is transcoded and accepted;
///   UTF-16 without one is rejected.
/// - 500 nested arrays are within the default depth limit of 512.
///
/// Needs the external corpus; skipped when it is absent.
@Suite(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct JSONTestSuiteTests {
    static let parsing = JSONTestSupport.testSuite + "/test_parsing"

    static func files(prefix: String) -> [String] {
        TestPaths.files(under: parsing) { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .map { String($0.split(separator: "/").last ?? "") }
    }

    static let implementationDefined: [String: Bool] = [
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_UTF-16LE_with_BOM.json": true,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_second_surrogate.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        "i_structure_500_nested_arrays.json": true,
        "i_structure_UTF-8_BOM_empty_object.json": true,
    ]

    @Test func allFilesAreFound() {
        #expect(Self.files(prefix: "y_").count == 95)
        #expect(Self.files(prefix: "n_").count == 188)
        #expect(Set(Self.files(prefix: "i_")) == Set(Self.implementationDefined.keys))
    }

    @Test(arguments: files(prefix: "y_"))
    func accepts(_ name: String) throws {
        #expect(try JSONTestSupport.accepts(Self.parsing + "/" + name))
    }

    @Test(arguments: files(prefix: "n_"))
    func rejects(_ name: String) throws {
        #expect(try !JSONTestSupport.accepts(Self.parsing + "/" + name))
    }

    @Test(arguments: files(prefix: "i_"))
    func implementationDefinedChoice(_ name: String) throws {
        let expected: Bool? = Self.implementationDefined[name]
        #expect(expected != nil, "no pinned choice for \(name)")
        #expect(try JSONTestSupport.accepts(Self.parsing + "/" + name) == expected)
    }

    @Test(arguments: files(prefix: "y_") + files(prefix: "n_"))
    func tinyBuffersGiveTheSameVerdict(_ name: String) throws {
        let path = Self.parsing + "/" + name
        let reference = try JSONTestSupport.accepts(path)
        for bufferSize in [1, 3] {
            #expect(try JSONTestSupport.accepts(path, bufferSize: bufferSize) == reference, "buffer size \(bufferSize)")
        }
    }

    @Test func deepNestingIsRejectedAtTheLimit() throws {
        let path = Self.parsing + "/n_structure_100000_opening_arrays.json"
        #expect(throws: JSONError.depthLimitExceeded(
            limit: 512, at: JSONPosition(source: path, line: 1, column: 513, byteOffset: 512))
        ) {
            _ = try JSONValue(parsing: try FileByteSource(path: path))
        }
    }
}

/// nst/JSONTestSuite `test_transform`: values whose reading is a policy, pinned here.
@Suite(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct JSONTransformTests {
    static let transform = JSONTestSupport.testSuite + "/test_transform"

    func value(_ name: String) throws -> JSONValue {
        try JSONValue(parsing: try FileByteSource(path: Self.transform + "/" + name))
    }

    func onlyNumber(_ name: String) throws -> JSONNumber {
        guard case let .number(number)? = try value(name)[0] else {
            throw JSONError.syntax(.invalidNumber, at: JSONPosition(source: name, line: 1, column: 1, byteOffset: 0))
        }
        return number
    }

    @Test func integersBeyondInt64KeepTheirText() throws {
        let below = try onlyNumber("number_-9223372036854775809.json")
        #expect(below.text == "-9223372036854775809")
        #expect(below.isInteger)
        #expect(below.int64 == nil)
        let above = try onlyNumber("number_9223372036854775808.json")
        #expect(above.int64 == nil)
        #expect(try onlyNumber("number_10000000000000000999.json").text == "10000000000000000999")
    }

    @Test func int64EdgesAreExact() throws {
        #expect(try onlyNumber("number_-9223372036854775808.json").int64 == Int64.min)
        #expect(try onlyNumber("number_9223372036854775807.json").int64 == Int64.max)
        #expect(try onlyNumber("number_1000000000000000.json").int64 == 1_000_000_000_000_000)
    }

    @Test func decimalsAndExponentsKeepTheirText() throws {
        let long = try onlyNumber("number_1.000000000000000005.json")
        #expect(long.text == "1.000000000000000005")
        #expect(!long.isInteger)
        #expect(long.int64 == nil)
        #expect(long.double == 1.0)
        #expect(try onlyNumber("number_1.0.json").int64 == nil)
        #expect(try onlyNumber("number_1e6.json").double == 1_000_000)
        #expect(try onlyNumber("number_1e-999.json").double == 0)
        #expect(try onlyNumber("number_1e-999.json").text == "1E-999")
    }

    @Test func duplicateKeysAreKeptInOrderAndTheLastWins() throws {
        let object = try value("object_same_key_different_values.json")
        guard case let .object(members) = object else {
            Issue.record("not an object: \(object)")
            return
        }
        #expect(members.map(\.key) == ["a", "a"])
        #expect(object["a"] == .number(JSONNumber(2)))
    }

    @Test func escapedNULIsKept() throws {
        #expect(try value("string_with_escaped_NULL.json") == .array([.string("A\u{0}B")]))
    }

    @Test func keysAreNotNormalized() throws {
        let nfc = try value("object_key_nfc_nfd.json")
        guard case let .object(members) = nfc else {
            Issue.record("not an object: \(nfc)")
            return
        }
        #expect(members.count == 2)
        #expect(Array(members[0].key.utf8) != Array(members[1].key.utf8))
    }

    @Test(arguments: [
        "string_1_escaped_invalid_codepoint.json", "string_2_escaped_invalid_codepoints.json",
        "string_3_escaped_invalid_codepoints.json", "string_1_invalid_codepoint.json",
        "string_2_invalid_codepoints.json", "string_3_invalid_codepoints.json",
    ])
    func invalidCodePointsAreRejected(_ name: String) {
        #expect(throws: JSONError.self) { try value(name) }
    }
}
