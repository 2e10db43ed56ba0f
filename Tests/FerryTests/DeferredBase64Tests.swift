@testable import Ferry
import FerryFormats
import Testing

@Suite("export: binary values base64-encoded on the writing thread")
struct DeferredBase64Tests {
    /// Text with spans written the deferred way, and the same text with base64 written in place.
    static func both(_ parts: [Either]) -> (deferred: [UInt8], direct: [UInt8]) {
        var deferred: [UInt8] = [], direct: [UInt8] = []
        for part in parts {
            switch part {
            case .text(let text):
                deferred += Array(text.utf8)
                direct += Array(text.utf8)
            case .bytes(let bytes):
                bytes.withUnsafeBytes { DeferredBase64.appendSpan($0, to: &deferred) }
                PropertyListBase64.append(bytes, to: &direct)
            }
        }
        return (deferred, direct)
    }

    enum Either {
        case text(String)
        case bytes([UInt8])
    }

    @Test("spans anywhere (first, last, adjacent, of every length mod 3, holding 0xFF) expand to their base64")
    func expandsEverySpan() {
        let parts: [Either] = [
            .bytes([0xFF, 0x00, 0xFF]), .text("1,名前,"), .bytes([0x01]), .bytes([0xFF, 0xFE]), .text(",\"q\"\"\"\r\n"),
            .bytes(Array(0...255)), .text("末尾"), .bytes([0xFF]),
        ]
        let (deferred, direct) = Self.both(parts)
        var expanded: [UInt8] = [0x41]
        DeferredBase64.expand(deferred, into: &expanded)
        #expect(expanded == direct)
        DeferredBase64.expand(Array("no spans at all, ünïcode".utf8), into: &expanded)
        #expect(expanded == Array("no spans at all, ünïcode".utf8))
    }
}
