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

    @Test func aOneColumnListKeepsItsColumn() {
        // URLs and times split on ':', text on ';' — but the header does not.
        #expect(Self.sniffed("urlPath\nhttps://example.com:8080/a.jpg\nhttp://例え.jp/写真.png\nftp://x.org/y\n") == ",")
        #expect(Self.sniffed("time\n10:30:00\n11:45:10\n23:59:59\n") == ",")
        #expect(Self.sniffed("备注\n买牛奶; 鸡蛋\n打电话; 妈妈\n写报告; 周五\n") == ",")
    }

    @Test func neverADelimiterThatSplitsTheHeaderUnlikeTheRows() {
        #expect(Self.sniffed("a;b\n1;2;3\n4;5;6\n7;8;9\n") == ",")
        #expect(Self.sniffed("start:end\n10:30:00\n11:00:00\n") == ",")
    }

    @Test func theCommaStaysUnlessAnotherIsClearlyMoreConsistent() {
        // ':' splits header and rows alike into more fields, but no more consistently.
        #expect(Self.sniffed("name,time:zone:offset\nAda,10:UTC:0\nBob,11:CET:1\n") == ",")
        // ';' agrees with the header on every row, the comma on 9 rows of 10: not clearly worse.
        #expect(Self.sniffed("a,b;c\n" + String(repeating: "1,2;3\n", count: 9) + "1,2,3;4\n") == ",")
        // The comma agrees on 3 rows of 5, ';' on all of them.
        #expect(Self.sniffed("id;note, short\n1;a,b\n2;c,d\n3;e,f\n4;g\n5;h\n") == ";")
        // The comma splits the header, but few rows like it.
        #expect(Self.sniffed("name;amount, EUR\nfoo;1,5\nbar;2\nbaz;3\nqux;4\n") == ";")
    }

    @Test func aHeaderAloneDecides() {
        #expect(Self.sniffed("a;b;c\n") == ";")
        #expect(Self.sniffed("only\n") == ",")
    }
}
