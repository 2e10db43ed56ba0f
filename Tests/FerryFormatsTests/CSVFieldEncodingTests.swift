import FerryFormats
import Testing

/// Fields written as RFC 4180 has them, whatever the length and wherever the special byte is.
struct CSVFieldEncodingTests {
    private func encoded(_ text: String, delimiter: UInt8 = UInt8(ascii: ",")) -> String {
        var output: [UInt8] = []
        CSVFieldEncoding.append(text, delimiter: delimiter, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    @Test("empty text is quoted; plain text is copied")
    func plain() {
        #expect(encoded("") == "\"\"")
        #expect(encoded("a") == "a")
        #expect(encoded("/remote/uploads/2014/01/scan3.png") == "/remote/uploads/2014/01/scan3.png")
        #expect(encoded("東京 タワー;tab\there") == "東京 タワー;tab\there")
    }

    @Test("a delimiter, quote, CR or LF anywhere in fields of every length up to 40 quotes the field", arguments: [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09])
    func specialAnywhere(delimiter: UInt8) {
        let specials = [Character(UnicodeScalar(delimiter)), "\"", "\r", "\n"]
        for length in 1...40 {
            for place in 0..<length {
                for special in specials {
                    var characters = Array(String(repeating: "x", count: length))
                    characters[place] = special
                    let text = String(characters)
                    let expected = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                    #expect(encoded(text, delimiter: delimiter) == expected, "\(length) bytes, \(special.debugDescription) at \(place)")
                }
            }
            // Another delimiter's byte is plain text.
            let other = delimiter == UInt8(ascii: ",") ? ";" : ","
            #expect(encoded(String(repeating: other, count: length), delimiter: delimiter) == String(repeating: other, count: length))
        }
    }
}
