import FerryFormats
import Testing

@Suite("UTF-8 text taken only when it is valid")
struct UTF8TextTests {
    private func string(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBytes { UTF8Text.string($0) }
    }

    @Test("valid UTF-8 gives its String, byte for byte")
    func valid() {
        for text in ["", "plain ASCII", "旅行写真.jpg", "e\u{301} and é", "🎯 focus", String(repeating: "ж", count: 40)] {
            #expect(string(Array(text.utf8)) == text)
        }
    }

    @Test("anything a decoder would repair gives nil, where the repair keeps the length too",
          arguments: [[0x61, 0xFF, 0x62], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xE6, 0x97], [0x80], [0xF4, 0x90, 0x80, 0x80],
                      Array("long enough to be stored outside the String: ".utf8) + [0xEF, 0xBF]])
    func invalid(bytes: [UInt8]) {
        #expect(string(bytes) == nil)
    }

    @Test("ASCII is taken as it is, and one byte past ASCII at any place (of the words or the tail) is checked")
    func asciiAndOneOtherByte() {
        let ascii = Array("twenty-one ascii byte".utf8)
        #expect(string(ascii) == "twenty-one ascii byte")
        for place in ascii.indices {
            var bytes = ascii
            bytes[place] = 0xFF
            #expect(string(bytes) == nil, "0xFF at \(place)")
            bytes[place] = 0xC3
            bytes.insert(0xA9, at: place + 1)
            #expect(string(bytes) == String(decoding: ascii[..<place], as: UTF8.self) + "é" + String(decoding: ascii[(place + 1)...], as: UTF8.self))
        }
    }

    @Test("U+FFFD itself is valid text")
    func replacementCharacterItself() {
        #expect(string([0x61, 0xEF, 0xBF, 0xBD, 0x62]) == "a\u{FFFD}b")
    }
}
