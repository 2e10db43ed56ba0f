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
}
