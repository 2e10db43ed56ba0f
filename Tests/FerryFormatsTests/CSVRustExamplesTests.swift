import FerryFormats
import Testing

/// The example files of rust-csv's tutorial. Needs the external corpus; skipped when it is absent.
@Suite(.enabled(if: CSVTestSupport.corpusAvailable, "needs ../shared/corpus"))
struct CSVRustExamplesTests {
    static func path(_ name: String) -> String { CSVTestSupport.rustExamples + "/" + name }

    static let smallpopHeader = ["city", "region", "country", "population"]

    @Test func smallpop() throws {
        var reader = try CSVReader(source: FileByteSource(path: Self.path("smallpop.csv")))
        let header = reader.header
        #expect(header == Self.smallpopHeader)
        let rows = try CSVTestSupport.strings(&reader)
        #expect(rows.count == 10)
        #expect(rows.first == ["Southborough", "MA", "United States", "9686"])
        #expect(rows.last == ["Concord", "NH", "United States", "42605"])
        #expect(rows.allSatisfy { $0.count == 4 })
    }

    @Test func smallpopColonReadsLikeSmallpop() throws {
        var comma = try CSVReader(source: FileByteSource(path: Self.path("smallpop.csv")))
        var colon = try CSVReader(
            source: FileByteSource(path: Self.path("smallpop-colon.csv")),
            dialect: CSVDialect(delimiter: UInt8(ascii: ":")))
        let colonHeader = colon.header
        #expect(colonHeader == Self.smallpopHeader)
        #expect(try CSVTestSupport.strings(&colon) == CSVTestSupport.strings(&comma))
    }

    @Test func smallpopColonIsSniffed() throws {
        let sample = try CSVTestSupport.fileBytes(Self.path("smallpop-colon.csv"))
        #expect(CSVDialect.sniff(sample: sample).delimiter == UInt8(ascii: ":"))
        let commaSample = try CSVTestSupport.fileBytes(Self.path("smallpop.csv"))
        #expect(CSVDialect.sniff(sample: commaSample).delimiter == UInt8(ascii: ","))
    }

    @Test func uspopNullHasEmptyUnquotedFields() throws {
        var reader = try CSVReader(source: FileByteSource(path: Self.path("uspop-null.csv")))
        let header = reader.header
        #expect(header == ["City", "State", "Population", "Latitude", "Longitude"])
        var rowCount = 0
        var emptyPopulations = 0
        while let row = try reader.nextRow() {
            rowCount += 1
            #expect(row.count == 5)
            if row.withField(2, { $0.isEmpty }) {
                emptyPopulations += 1
                #expect(!row.wasQuoted(2))
            }
            if rowCount == 1 {
                #expect(try row.strings() == ["Davidsons Landing", "AK", "", "65.2419444", "-165.2716667"])
                #expect(row.line == 2)
            }
        }
        #expect(rowCount == 100)
        #expect(emptyPopulations == 47)
    }

    @Test func uspopLatin1IsRejectedByDefaultWithItsLine() throws {
        var reader = try CSVReader(source: FileByteSource(path: Self.path("uspop-latin1.csv")))
        #expect(throws: CSVError.invalidUTF8(source: Self.path("uspop-latin1.csv"), line: 4, field: 1)) {
            try CSVTestSupport.strings(&reader)
        }
    }

    @Test func uspopLatin1ReadsAsWindows1252() throws {
        var reader = try CSVReader(
            source: FileByteSource(path: Self.path("uspop-latin1.csv")), textPolicy: .windows1252)
        let rows = try CSVTestSupport.strings(&reader)
        #expect(rows.count == 100)
        #expect(rows[2] == ["\u{D5}akman", "AL", "", "33.7133333", "-87.3886111"])
    }

    /// rust-csv's tutorial reads strange.csv with `;`, backslash escapes, `#` comments, no header
    /// and rows of varying length.
    @Test func strange() throws {
        let dialect = CSVDialect(
            delimiter: UInt8(ascii: ";"), escape: UInt8(ascii: "\\"), hasHeader: false, comment: UInt8(ascii: "#"))
        var reader = try CSVReader(source: FileByteSource(path: Self.path("strange.csv")), dialect: dialect)
        let header = reader.header
        #expect(header == nil)
        var rows: [[String]] = []
        var lines: [Int] = []
        while let row = try reader.nextRow() {
            rows.append(try row.strings())
            lines.append(row.line)
        }
        #expect(rows == [
            ["\"Hacksaw\" Jim Duggan", "1987"],
            ["Bret \"Hit Man\" Hart", "1984"],
            ["Rafael Halperin"],
            ["\"Big Cat\" Ernie Ladd", "1964"],
            ["\"Macho Man\" Randy Savage", "1985"],
            ["Jake \"The Snake\" Roberts", "1986"],
        ])
        #expect(lines == [1, 2, 4, 5, 6, 7])
    }

    @Test(arguments: ["smallpop.csv", "uspop-null.csv", "uspop-latin1.csv", "strange.csv"])
    func chunkBoundariesDoNotMatter(_ name: String) throws {
        let bytes = try CSVTestSupport.fileBytes(Self.path(name))
        let dialect = CSVDialect(escape: UInt8(ascii: "\\"), hasHeader: false, comment: UInt8(ascii: "#"))
        let reference = try CSVTestSupport.rows(bytes, dialect: dialect)
        #expect(reference.count > 5)
        for bufferSize in [1, 2, 3, 7, 64] {
            #expect(try CSVTestSupport.rows(bytes, dialect: dialect, bufferSize: bufferSize) == reference)
        }
    }
}
