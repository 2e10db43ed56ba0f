import FerryFormats
import Testing

struct CSVSniffTests {
    static func sniffed(_ text: String, base: CSVDialect = .rfc4180) -> Character {
        Character(Unicode.Scalar(CSVDialect.sniff(sample: Array(text.utf8), base: base).delimiter))
    }

    @Test func picksTheConsistentDelimiter() {
        #expect(Self.sniffed("a,b,c\n1,2,3\n4,5,6\n") == ",")
        #expect(Self.sniffed("a;b\n\"1,5\";2\n\"3,25\";4\n7;\"8,1,2\"\n") == ";")
        #expect(Self.sniffed("a\tb\tc\n1\t2\t3\n") == "\t")
        #expect(Self.sniffed("a|b\n1|2\n") == "|")
        #expect(Self.sniffed("a:b:c\r\n1:2:3\r\n") == ":")
    }

    @Test func delimitersInsideQuotesDoNotCount() {
        // Commas only inside quoted fields (one of them spanning a line break); `|` separates.
        #expect(Self.sniffed("\"x,y,z\"|1\n\"p,\nq\"|2\n\"r,s\"|3\n") == "|")
    }

    @Test func aCutOffLastLineIsIgnored() {
        #expect(Self.sniffed("a;b;c\n1;2;3\n4;5;6\nx,y,z,w,v") == ";")
    }

    @Test func commentLinesAreIgnored() {
        let base = CSVDialect(comment: UInt8(ascii: "#"))
        #expect(Self.sniffed("# a, b, c, d\n# e, f\nx;y\n1;2\n", base: base) == ";")
    }

    @Test func keepsTheBaseWhenNothingSplits() {
        let base = CSVDialect(delimiter: UInt8(ascii: ";"), hasHeader: false)
        let dialect = CSVDialect.sniff(sample: Array("one\ntwo\n".utf8), base: base)
        #expect(dialect == base)
        #expect(CSVDialect.sniff(sample: [], base: base) == base)
    }

    @Test func keepsTheOtherSettingsOfTheBase() {
        let base = CSVDialect(hasHeader: false, comment: UInt8(ascii: "#"))
        let dialect = CSVDialect.sniff(sample: Array("a\tb\n".utf8), base: base)
        #expect(dialect == CSVDialect(delimiter: UInt8(ascii: "\t"), hasHeader: false, comment: UInt8(ascii: "#")))
    }
}
