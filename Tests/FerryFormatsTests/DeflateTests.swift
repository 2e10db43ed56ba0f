import FerryFormats
import Testing

@Suite("Raw DEFLATE")
struct DeflateTests {
    private let text = Array(String(repeating: "Core Data keeps its model in Z_MODELCACHE. ", count: 200).utf8)

    @Test("deflate then inflate gives the input back, for several sizes and levels")
    func roundTrip() throws {
        for input in [[], [0x42], text, (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }] {
            for level: Int32 in [0, 6, 9] {
                #expect(try RawDeflate.inflate(RawDeflate.deflate(input, level: level)) == input)
            }
        }
    }

    @Test("the stream is raw: no zlib header, and a known raw stream inflates")
    func rawFormat() throws {
        let deflated = try RawDeflate.deflate(text)
        #expect(deflated.first != 0x78)
        #expect(deflated.count < text.count / 10)
        // A stored (uncompressed) final block: BFINAL=1, BTYPE=00, LEN=3, NLEN=~3, "abc".
        #expect(try RawDeflate.inflate([0x01, 0x03, 0x00, 0xFC, 0xFF, 0x61, 0x62, 0x63]) == Array("abc".utf8))
    }

    @Test("a truncated stream is reported as truncated")
    func truncated() throws {
        let deflated = try RawDeflate.deflate(text)
        #expect(throws: DeflateError.truncated(offset: 10)) { try RawDeflate.inflate(Array(deflated.prefix(10))) }
        #expect(throws: DeflateError.truncated(offset: 0)) { try RawDeflate.inflate([]) }
    }

    @Test("corrupt data and trailing bytes are typed errors")
    func corruptAndTrailing() throws {
        let error = #expect(throws: DeflateError.self) { try RawDeflate.inflate([0xFF, 0xFF, 0xFF, 0xFF]) }
        guard case .corrupt? = error else { Issue.record("expected .corrupt, got \(String(describing: error))"); return }
        let deflated = try RawDeflate.deflate(text)
        #expect(throws: DeflateError.trailingBytes(offset: deflated.count, trailing: 3)) { try RawDeflate.inflate(deflated + [1, 2, 3]) }
    }

    @Test("output beyond the limit stops the inflate")
    func limit() throws {
        let zeros = try RawDeflate.deflate([UInt8](repeating: 0, count: 1_000_000))
        #expect(try RawDeflate.inflate(zeros, limit: 1_000_000).count == 1_000_000)
        let error = #expect(throws: DeflateError.self) { try RawDeflate.inflate(zeros, limit: 999_999) }
        guard case .outputLimitExceeded(999_999, _)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(RawDeflate.defaultOutputLimit == 256 * 1024 * 1024)
    }
}
