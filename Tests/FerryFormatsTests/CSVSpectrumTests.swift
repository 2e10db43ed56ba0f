import FerryFormats
import FoundationEssentials
import Testing

/// csv-spectrum: every `csvs/NAME.csv` against its `json/NAME.json` oracle (objects keyed by the
/// header, all strings). Needs the external corpus; skipped when it is absent.
@Suite(.enabled(if: CSVTestSupport.corpusAvailable, "needs ../shared/corpus"))
struct CSVSpectrumTests {
    static func caseNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: CSVTestSupport.spectrum + "/csvs")) ?? []
        return names.filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }.sorted()
    }

    @Test func allCasesAreFound() {
        #expect(Self.caseNames().count >= 11)
    }

    @Test(arguments: caseNames())
    func matchesOracle(_ name: String) throws {
        let oracleBytes = try CSVTestSupport.fileBytes(CSVTestSupport.spectrum + "/json/\(name).json")
        let expected = try JSONDecoder().decode([[String: String]].self, from: Data(oracleBytes))

        var reader = try CSVReader(source: FileByteSource(path: CSVTestSupport.spectrum + "/csvs/\(name).csv"))
        let readHeader = reader.header
        let header = try #require(readHeader)
        var actual: [[String: String]] = []
        while let row = try reader.nextRow() {
            #expect(row.count == header.count, "row at line \(row.line)")
            let fields = try row.strings()
            actual.append(Dictionary(zip(header, fields), uniquingKeysWith: { first, _ in first }))
        }
        #expect(actual == expected)
    }

    @Test(arguments: caseNames())
    func chunkBoundariesDoNotMatter(_ name: String) throws {
        let bytes = try CSVTestSupport.fileBytes(CSVTestSupport.spectrum + "/csvs/\(name).csv")
        let reference = try CSVTestSupport.rows(bytes)
        #expect(!reference.isEmpty)
        for bufferSize in [1, 2, 3, 7, 64] {
            #expect(try CSVTestSupport.rows(bytes, bufferSize: bufferSize) == reference, "buffer size \(bufferSize)")
        }
    }
}
