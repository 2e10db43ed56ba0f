import FerryFormats
import Foundation
import Testing

@Suite("base64 from contiguous bytes and back")
struct PropertyListBase64Tests {
    private func decode(_ text: String, _ padding: PropertyListBase64.Padding = .optional) -> [UInt8]? {
        Array(text.utf8).withUnsafeBytes { PropertyListBase64.decode(contiguous: $0, padding: padding) }
    }

    @Test("every tail length, padded, with whitespace anywhere")
    func padded() {
        #expect(decode("") == [])
        #expect(decode("QQ==") == [65])
        #expect(decode("QUI=") == [65, 66])
        #expect(decode("QUJD") == [65, 66, 67])
        #expect(decode(" QU\r\nJD\tQQ== ", .required) == [65, 66, 67, 65])
        #expect(decode("AAEC/w==", .required) == [0, 1, 2, 255])
        #expect(decode("+/+/") == [0xFB, 0xFF, 0xBF])
    }

    @Test("four characters at a time and one by one agree: whitespace, padding or a stray byte at every position")
    func everyPosition() {
        let bytes = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let text = Array(PropertyListBase64.text(bytes).utf8)
        for position in 0...text.count {
            var spaced = text
            spaced.insert(UInt8(ascii: "\n"), at: position)
            #expect(spaced.withUnsafeBytes { PropertyListBase64.decode(contiguous: $0) } == bytes, "newline at \(position)")
            var stray = text
            stray.insert(UInt8(ascii: "*"), at: position)
            #expect(stray.withUnsafeBytes { PropertyListBase64.decode(contiguous: $0) } == nil, "stray byte at \(position)")
        }
        for count in 0..<12 {
            let prefix = Array(bytes.prefix(count))
            #expect(decode(PropertyListBase64.text(prefix), .required) == prefix, "\(count) bytes")
        }
    }

    @Test("padding may be left out unless it is required")
    func paddingRules() {
        #expect(decode("QQ") == [65])
        #expect(decode("QUI") == [65, 66])
        #expect(decode("QQ", .required) == nil)
        #expect(decode("QUI", .required) == nil)
        #expect(decode("QUJD=", .required) == nil)
        #expect(decode("QUJD=") == nil)
        #expect(decode("QQ=") == nil)
        #expect(decode("====") == nil)
        #expect(decode("Q") == nil)
    }

    @Test("canonical text is the one its bytes encode to, but for line breaks: unused bits set, spaces or tabs refuse it")
    func canonical() {
        #expect(decode("QQ==", .canonical) == [65] && decode("QUI=", .canonical) == [65, 66])
        #expect(decode("QUJD\r\nQQ==", .canonical) == [65, 66, 67, 65])
        #expect(decode("QR==", .canonical) == nil && decode("QR==", .required) == [65])
        #expect(decode("QUJ=", .canonical) == nil && decode("QUJ=", .required) == [65, 66])
        #expect(decode("QUJD QQ==", .canonical) == nil && decode("QUJD\tQQ==", .canonical) == nil)
        #expect(decode("QQ", .canonical) == nil)
        for length in 0...30 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 5) }
            #expect(decode(PropertyListBase64.text(bytes), .canonical) == bytes, "\(length) bytes")
        }
    }

    @Test("bytes outside the alphabet and text after padding are refused")
    func invalid() {
        #expect(decode("QQ==QQ==") == nil)
        #expect(decode("AAE*C/w==") == nil)
        #expect(decode("QUJD\u{0B}") == nil)
        #expect(decode("QUJDé") == nil)
        #expect(decode("-_-_") == nil)
    }

    @Test("a long value decodes to the bytes that were encoded")
    func roundTrip() {
        let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var text: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = UInt32(bytes[start]) << 16 | UInt32(bytes[start + 1]) << 8 | UInt32(bytes[start + 2])
            for shift in [18, 12, 6, 0] { text.append(alphabet[Int(chunk >> UInt32(shift) & 63)]) }
            if start % 57 == 0 { text.append(10) }
        }
        #expect(text.withUnsafeBytes { PropertyListBase64.decode(contiguous: $0, padding: .required) } == bytes)
    }

    @Test("appending encodes every tail length with padding, after what the output already holds")
    func appendEncodes() {
        var output = Array("x,".utf8)
        PropertyListBase64.append([], to: &output)
        #expect(output == Array("x,".utf8))
        let cases: [([UInt8], String)] = [([65], "QQ=="), ([65, 66], "QUI="), ([65, 66, 67], "QUJD"), ([0, 1, 2, 255], "AAEC/w=="),
                                          ([0xFB, 0xFF, 0xBF], "+/+/")]
        for (bytes, text) in cases {
            var output = Array("x,".utf8)
            PropertyListBase64.append(bytes, to: &output)
            #expect(String(decoding: output, as: UTF8.self) == "x," + text)
        }
    }

    @Test("appended base64 of every length up to 300 decodes to the same bytes")
    func appendRoundTrip() {
        for length in 0...300 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ length) }
            var text: [UInt8] = []
            PropertyListBase64.append(bytes, to: &text)
            #expect(text.count == (length + 2) / 3 * 4)
            #expect(text.withUnsafeBytes { PropertyListBase64.decode(contiguous: $0, padding: .required) } == bytes)
        }
    }

    @Test("agrees with Foundation's decoder on padded text, valid or with one byte changed anywhere (but text after padding)")
    func agreesWithFoundation() {
        for length in 0...48 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ length &* 29) }
            let text = Array(Data(bytes).base64EncodedString().utf8)
            #expect(text.withUnsafeBytes { PropertyListBase64.decode(contiguous: $0, padding: .required) } == bytes, "\(length) bytes")
            // Every position, a spread of bytes; not the whitespace this decoder skips and Foundation's refuses.
            for position in text.indices {
                for replacement in stride(from: 0, through: 255, by: 5).map(UInt8.init) where ![0x20, 0x09, 0x0A, 0x0D].contains(replacement) {
                    var changed = text
                    changed[position] = replacement
                    let ours = changed.withUnsafeBytes { PropertyListBase64.decode(contiguous: $0, padding: .required) }
                    let label = "\(String(decoding: changed, as: UTF8.self)): byte \(replacement) at \(position)"
                    // Text after padding ends the value (RFC 4648 3.3); Foundation decodes on.
                    let pad = UInt8(ascii: "=")
                    if let firstPad = changed.firstIndex(of: pad), changed[firstPad...].contains(where: { $0 != pad }) {
                        #expect(ours == nil, "\(label)")
                    } else {
                        #expect(ours == Data(base64Encoded: Data(changed)).map { Array($0) }, "\(label)")
                    }
                }
            }
        }
    }
}
