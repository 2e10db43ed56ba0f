import FerryMigration
import Testing

@Suite("names in messages")
struct NameListTextTests {
    @Test("invisible characters are written as escapes, so 'id' and a BOM before 'id' read differently; long lists are cut")
    func invisibleCharacters() {
        #expect(NameListText.summary(["\u{FEFF}\u{FEFF}id", "id\u{200B}", "a b", "a\u{00A0}b", "naïve", "名前"])
            == "\\u{FEFF}\\u{FEFF}id, id\\u{200B}, a b, a\\u{A0}b, naïve, 名前")
        #expect(NameListText.summary((1...12).map { "c\($0)" }, shown: 3) == "c1, c2, c3 and 9 more")
    }

    @Test("a reject's line escapes what a value quoted in it holds: line breaks, tabs, controls, invisible characters")
    func rejectSummary() {
        let reject = Reject(location: SourceLocation(file: "r.csv", line: 2), entity: "Rec", attribute: "n", value: "4\r\n5\t\u{1B}\u{200B}",
                            reason: "'4\r\n5\t\u{1B}\u{200B}' is not an integer")
        #expect(reject.summary == "r.csv:2: Rec.n: '4\\r\\n5\\t\\u{1B}\\u{200B}' is not an integer")
        #expect(reject.value == "4\r\n5\t\u{1B}\u{200B}", "the --rejects file keeps the value as it was")
        #expect(NameListText.summary(["a\tb", "c\nd"]) == "a\\tb, c\\nd")
    }
}
