import Testing
@testable import FerryFormats

/// Assembles a binary plist from raw object bytes, with chosen offset and reference widths.
func makeBinaryPlist(_ objects: [[UInt8]], top: UInt64 = 0, offsetSize: Int = 1, referenceSize: Int = 1, count: UInt64? = nil) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
        offsets.append(bytes.count)
        bytes += object
    }
    let tableStart = bytes.count
    for offset in offsets { bytes.appendBigEndian(UInt64(offset), width: offsetSize) }
    bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
    bytes.appendBigEndian(count ?? UInt64(objects.count), width: 8)
    bytes.appendBigEndian(top, width: 8)
    bytes.appendBigEndian(UInt64(tableStart), width: 8)
    return bytes
}

/// Object references of `width` bytes.
func references(_ values: [Int], width: Int = 1) -> [UInt8] {
    var bytes: [UInt8] = []
    for value in values { bytes.appendBigEndian(UInt64(value), width: width) }
    return bytes
}

struct PropertyListBinaryReaderTests {
    let reader = BinaryPropertyListReader()

    func problem(_ bytes: [UInt8]) -> BinaryPropertyListProblem? {
        do {
            _ = try reader.decode(bytes)
            return nil
        } catch {
            guard case .binary(let problem, _) = error else { return nil }
            return problem
        }
    }

    @Test func directCycleIsRejected() {
        #expect(problem(makeBinaryPlist([[0xA1, 0]])) == .cycle)
    }

    @Test func indirectCycleThroughDictionaryIsRejected() {
        let plist = makeBinaryPlist([[0xD1, 1, 2], [0x51, 0x61], [0xA1, 0]])
        #expect(problem(plist) == .cycle)
    }

    @Test func sharedObjectsAreNotCycles() throws {
        let plist = makeBinaryPlist([[0xA2, 1, 1], [0xA1, 2], [0x51, 0x61]])
        let inner = PropertyListValue.array([.string("a")])
        #expect(try reader.decode(plist) == .array([inner, inner]))
    }

    /// 60 arrays, each referencing the next twice, end in one string: 344 bytes that hold 2^61 - 1
    /// objects for whoever walks the decoded value.
    static let sharedChain: [UInt8] = makeBinaryPlist((0..<60).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x51, 0x78]])

    @Test func sharedContainersThatExpandPastTheLimitAreRejected() throws {
        #expect(problem(Self.sharedChain) == .tooManyObjects(limit: 1 << 16))
        // The first array whose expansion (2^17 - 1 objects) passes the limit is the 16th from the bottom.
        #expect(throws: PropertyListError.binary(.tooManyObjects(limit: 1 << 16), offset: 8 + 3 * 44)) { try reader.decode(Self.sharedChain) }
        // Shared containers within the limit decode, and the limit can be lowered.
        let small = makeBinaryPlist((0..<3).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x51, 0x78]])
        #expect(throws: Never.self) { try reader.decode(small) }
        #expect(throws: PropertyListError.binary(.tooManyObjects(limit: 14), offset: 8)) {
            try BinaryPropertyListReader(maxObjects: 14).decode(small)
        }
        #expect(throws: Never.self) { try BinaryPropertyListReader(maxObjects: 15).decode(small) }
    }

    @Test func nestingDepthIsLimited() {
        let depth = 600
        var objects = (0..<depth).map { [0xA1] + references([$0 + 1], width: 2) }
        objects.append([0x09])
        #expect(problem(makeBinaryPlist(objects, offsetSize: 2, referenceSize: 2)) == .nestingTooDeep(limit: 512))
        let shallow = BinaryPropertyListReader(maxDepth: 1000)
        #expect(throws: Never.self) { try shallow.decode(makeBinaryPlist(objects, offsetSize: 2, referenceSize: 2)) }
    }

    @Test func countsBeyondTheInputAreRejected() {
        #expect(problem(makeBinaryPlist([[0x5F, 0x10, 0xFF]])) == .countExceedsInput(255))
        #expect(problem(makeBinaryPlist([[0x45, 1, 2]])) == .countExceedsInput(5))
        #expect(problem(makeBinaryPlist([[0xAF, 0x11, 0x10, 0x00, 0]])) == .countExceedsInput(4096))
        #expect(problem(makeBinaryPlist([[0xD2, 0, 0]])) == .countExceedsInput(2))
    }

    @Test func negativeOrMalformedCountsAreRejected() {
        #expect(problem(makeBinaryPlist([[0x5F, 0x13] + Array(repeating: 0xFF, count: 8)])) == .invalidCount)
        #expect(problem(makeBinaryPlist([[0x5F, 0x22, 0, 0, 0, 0]])) == .invalidCount)
        #expect(problem(makeBinaryPlist([[0x5F, 0x14] + Array(repeating: 0, count: 16)])) == .invalidCount)
    }

    @Test func scalarsWithBadWidthsAreRejected() {
        #expect(problem(makeBinaryPlist([[0x15, 0, 0]])) == .invalidWidth(marker: 0x15))
        #expect(problem(makeBinaryPlist([[0x21, 0, 0]])) == .invalidWidth(marker: 0x21))
        #expect(problem(makeBinaryPlist([[0x32, 0, 0, 0, 0]])) == .invalidWidth(marker: 0x32))
        #expect(problem(makeBinaryPlist([[0x88] + Array(repeating: 0, count: 9)])) == .invalidWidth(marker: 0x88))
        #expect(problem(makeBinaryPlist([[0x13, 0, 0]])) == .truncatedObject)
    }

    @Test func unknownAndUnsupportedMarkersAreRejected() {
        #expect(problem(makeBinaryPlist([[0x70]])) == .unknownMarker(0x70))
        #expect(problem(makeBinaryPlist([[0xE0]])) == .unknownMarker(0xE0))
        #expect(problem(makeBinaryPlist([[0x0C]])) == .unknownMarker(0x0C))
        #expect(problem(makeBinaryPlist([[0x00]])) == .unsupportedObject(0x00))
        #expect(problem(makeBinaryPlist([[0x0F]])) == .unsupportedObject(0x0F))
    }

    @Test func nonFiniteDatesAreRejected() {
        var nan: [UInt8] = [0x33]
        nan.appendBigEndian(Double.nan.bitPattern, width: 8)
        var infinity: [UInt8] = [0x33]
        infinity.appendBigEndian(Double.infinity.bitPattern, width: 8)
        #expect(problem(makeBinaryPlist([nan])) == .invalidDate)
        #expect(problem(makeBinaryPlist([infinity])) == .invalidDate)
    }

    @Test func referencesAndOffsetsOutsideTheFileAreRejected() {
        #expect(problem(makeBinaryPlist([[0xA1, 5]])) == .objectReferenceOutOfRange(5))
        var badOffset = makeBinaryPlist([[0x09]])
        badOffset[9] = 0xF0 // the single offset-table entry
        #expect(problem(badOffset) == .objectOffsetOutOfRange(0xF0))
        badOffset[9] = 0x02 // inside the header
        #expect(problem(badOffset) == .objectOffsetOutOfRange(2))
    }

    @Test func impossibleTrailersAreRejected() {
        #expect(problem(makeBinaryPlist([[0x09], [0x09]], offsetSize: 0)) == .invalidOffsetSize(0))
        #expect(problem(makeBinaryPlist([[0x09]], offsetSize: 9)) == .invalidOffsetSize(9))
        #expect(problem(makeBinaryPlist([[0x09]], referenceSize: 0)) == .invalidObjectReferenceSize(0))
        #expect(problem(makeBinaryPlist(Array(repeating: [0x09], count: 300), offsetSize: 2, referenceSize: 1)) == .invalidObjectReferenceSize(1))
        guard case .invalidTrailer? = problem(makeBinaryPlist([[0x09]], top: 1)) else { Issue.record("top object"); return }
        guard case .invalidTrailer? = problem(makeBinaryPlist([[0x09]], count: 0)) else { Issue.record("zero objects"); return }
        guard case .invalidTrailer? = problem(makeBinaryPlist([[0x09]], count: 1 << 40)) else { Issue.record("huge count"); return }
        #expect(problem(Array("bplist00".utf8)) == .notBinaryPropertyList)
        #expect(problem(Array("bplisx00".utf8) + makeBinaryPlist([[0x09]]).dropFirst(8)) == .notBinaryPropertyList)
    }

    @Test func nonStringKeysAreRejected() {
        #expect(problem(makeBinaryPlist([[0xD1, 1, 2], [0x10, 1], [0x09]])) == .nonStringKey)
    }

    @Test func unpairedSurrogateIsRejected() {
        #expect(problem(makeBinaryPlist([[0x61, 0xD8, 0x00]])) == .invalidUTF16)
    }

    @Test func asciiTypedStringsFallBackToUTF8ThenLatin1() throws {
        #expect(try reader.decode(makeBinaryPlist([[0x52, 0xC3, 0xA9]])) == .string("é"))
        #expect(try reader.decode(makeBinaryPlist([[0x52, 0xE9, 0x41]])) == .string("éA"))
    }

    @Test func everyScalarKindDecodes() throws {
        func decode(_ object: [UInt8]) throws -> PropertyListValue { try reader.decode(makeBinaryPlist([object])) }
        #expect(try decode([0x08]) == .bool(false))
        #expect(try decode([0x09]) == .bool(true))
        #expect(try decode([0x10, 0xFF]) == .integer(255))
        #expect(try decode([0x11, 0xFF, 0xFF]) == .integer(65535))
        #expect(try decode([0x12, 0xFF, 0xFF, 0xFF, 0xFF]) == .integer(4_294_967_295))
        #expect(try decode([0x13] + Array(repeating: 0xFF, count: 8)) == .integer(-1))
        #expect(try decode([0x14] + Array(repeating: 0xFF, count: 8) + Array(repeating: 0, count: 8)) == .integer(-(Int128(1) << 64)))
        #expect(try decode([0x14] + Array(repeating: 0, count: 8) + Array(repeating: 0xFF, count: 8)) == .integer(Int128(UInt64.max)))
        #expect(try decode([0x22, 0x3F, 0x00, 0x00, 0x00]) == .real(0.5))
        #expect(try decode([0x23, 0x3F, 0xF8, 0, 0, 0, 0, 0, 0]) == .real(1.5))
        #expect(try decode([0x33, 0x41, 0xCD, 0xCD, 0x65, 0, 0, 0, 0]) == .date(1_000_000_000))
        #expect(try decode([0x43, 1, 2, 3]) == .data([1, 2, 3]))
        #expect(try decode([0x40]) == .data([]))
        #expect(try decode([0x53, 0x61, 0x62, 0x63]) == .string("abc"))
        #expect(try decode([0x62, 0xD8, 0x3D, 0xDE, 0x00]) == .string("😀"))
        #expect(try decode([0x80, 0x05]) == .uid(5))
        #expect(try decode([0x83, 0, 0, 1, 0]) == .uid(256))
        #expect(try decode([0x87] + Array(repeating: 0xFF, count: 8)) == .uid(UInt64.max))
    }

    @Test func containersDecode() throws {
        let set = makeBinaryPlist([[0xC2, 1, 2], [0x10, 1], [0x10, 2]])
        #expect(try reader.decode(set) == .set([.integer(1), .integer(2)]))
        let dictionary = makeBinaryPlist([[0xD2, 1, 2, 3, 3], [0x51, 0x61], [0x51, 0x62], [0x09]])
        #expect(try reader.decode(dictionary) == .dictionary(["a": .bool(true), "b": .bool(true)]))
        let long = makeBinaryPlist([[0xAF, 0x10, 20] + Array(repeating: 1, count: 20), [0x08]])
        #expect(try reader.decode(long) == .array(Array(repeating: .bool(false), count: 20)))
    }

    @Test(arguments: 1...8, 1...8)
    func everyOffsetAndReferenceWidthDecodes(offsetSize: Int, referenceSize: Int) throws {
        let plist = makeBinaryPlist(
            [[0xD1] + references([1, 2], width: referenceSize), [0x53, 0x6B, 0x65, 0x79], [0xA1] + references([1], width: referenceSize)],
            offsetSize: offsetSize, referenceSize: referenceSize)
        #expect(try reader.decode(plist) == .dictionary(["key": .array([.string("key")])]))
    }

    @Test func errorsCarryOffsetAndDescription() {
        do {
            _ = try reader.decode(makeBinaryPlist([[0x09], [0x70]], top: 1))
            Issue.record("expected an error")
        } catch {
            #expect(error == .binary(.unknownMarker(0x70), offset: 9))
            #expect(error.description == "binary property list, byte offset 9: unknown object marker 0x70")
        }
    }
}
