import FerryFormats
import FerryTestSupport
import Testing

/// swift-foundation's JSON resources: `pass/*.json` must parse, `fail/*.json` must not.
///
/// Decisions pinned here:
/// - `fail1.json` is a bare top-level string. RFC 8259 allows any value at the top level, so it is
///   accepted (it fails only under the old rule that a JSON text must be an object or array).
/// - `pass1-utf16*.json` and `pass1-utf32*.json` carry no byte order mark. Ferry reads UTF-8, and
///   UTF-16 only with a byte order mark, so the reader rejects these as they are; with a byte order
///   mark prepended, the UTF-16 variants read equal to `pass1-utf8.json`. UTF-32 is not supported.
///
/// Needs the external corpus; skipped when it is absent.
@Suite(.enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct JSONFoundationResourcesTests {
    static let pass = JSONTestSupport.foundationJSON + "/pass"
    static let fail = JSONTestSupport.foundationJSON + "/fail"

    static func names(in folder: String, where filter: (String) -> Bool = { _ in true }) -> [String] {
        TestPaths.files(under: folder) { $0.hasSuffix(".json") && filter($0) }
            .map { String($0.split(separator: "/").last ?? "") }
    }

    static let utf8Passes = names(in: pass) { !$0.contains("utf16") && !$0.contains("utf32") }

    @Test func allFilesAreFound() {
        #expect(Self.names(in: Self.pass).count == 19)
        #expect(Self.names(in: Self.fail).count == 40)
    }

    @Test(arguments: utf8Passes)
    func passes(_ name: String) throws {
        #expect(try JSONTestSupport.accepts(Self.pass + "/" + name))
    }

    @Test(arguments: names(in: fail) { $0 != "fail1.json" })
    func fails(_ name: String) throws {
        #expect(try !JSONTestSupport.accepts(Self.fail + "/" + name))
    }

    @Test func aTopLevelStringIsValid() throws {
        let value = try JSONValue(parsing: try FileByteSource(path: Self.fail + "/fail1.json"))
        guard case .string = value else {
            Issue.record("expected a string, got \(value)")
            return
        }
    }

    @Test(arguments: ["pass1-utf16be.json", "pass1-utf16le.json", "pass1-utf32be.json", "pass1-utf32le.json"])
    func unmarkedWideEncodingsAreRejected(_ name: String) throws {
        #expect(try !JSONTestSupport.accepts(Self.pass + "/" + name))
    }

    @Test(arguments: [("pass1-utf16be.json", [UInt8]([0xFE, 0xFF])), ("pass1-utf16le.json", [0xFF, 0xFE])])
    func utf16WithAByteOrderMarkReadsLikeUTF8(_ name: String, bom: [UInt8]) throws {
        let utf8 = try JSONValue(parsing: TestPaths.read(Self.pass + "/pass1-utf8.json"))
        let utf16 = try JSONValue(parsing: bom + TestPaths.read(Self.pass + "/" + name))
        #expect(utf16 == utf8)
    }
}
