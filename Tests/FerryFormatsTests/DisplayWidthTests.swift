import FerryFormats
import Testing

@Suite("display width: the columns text takes on a terminal")
struct DisplayWidthTests {
    @Test("ASCII takes one column a character; CJK, kana, Hangul and fullwidth forms two", arguments: [
        ("Call the bank", 13), ("提交报告", 8), ("记得带身份证 第二行", 19), ("カタカナ", 8), ("한국어", 6), ("ＡＢ", 4), ("", 0),
    ])
    func wide(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
        #expect(DisplayWidth.of(utf8: Array(text.utf8)) == width)
    }

    @Test("combining marks, joiners and controls take none; an emoji two, a joined emoji sequence two in all", arguments: [
        ("e\u{0301}", 1), ("Cafe\u{0301}", 4), ("\u{0301}", 0), ("a\u{200B}b", 2), ("🎯", 2), ("👩\u{200D}💻", 2), ("❤\u{FE0F}", 2),
        ("\u{1112}\u{1161}\u{11AB}", 2),
    ])
    func narrowAndZero(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test("a table pads by display width: cells after Chinese text start in the same terminal column")
    func tableAlignment() {
        let lines = TextTable.lines([["title", "notes", "n"], ["提交报告", "记得带身份证", "4"], ["Call the bank", "Ask", "12"]],
                                    rightAligned: [2])
        #expect(lines.map(DisplayWidth.of) == [31, 31, 31])
        #expect(lines[1] == "提交报告" + String(repeating: " ", count: 7) + "记得带身份证" + "   4")
    }

    @Test("a control character in a cell is shown escaped, so every row stays one line and aligned")
    func tableEscapesControlCharacters() {
        let lines = TextTable.lines([["email", "matches a\nb\tc\u{1B}"], ["topic", "x"]])
        #expect(lines == ["email  matches a\\nb\\tc\\u{1B}", "topic  x"])
    }
}
