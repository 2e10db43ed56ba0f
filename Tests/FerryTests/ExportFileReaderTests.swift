@testable import Ferry
import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// An export file's records come as cells in the order of their columns, the columns shared by
/// records that have the same ones (a restore looks each name up once per set of columns): a
/// record whose keys differ from the one before must get columns of its own, or its values would
/// be read under another record's names.
@Suite("export file records as cells by column")
struct ExportFileReaderTests {
    private func records(_ text: String, _ name: String, format: ExportFormat) throws -> [ExportRecordCells] {
        let path = try TestPaths.temporaryFolder("export-file-reader") + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let reader = try ExportFileReader(try FileByteSource(path: path), format: format)
        var records: [ExportRecordCells] = []
        while let record = try reader.nextRecord() { records.append(record) }
        return records
    }

    private func text(_ cell: ExportCell?) -> String? {
        switch cell {
        case .json(.string(let text))?, .field(let text, _)?: text
        case .json(.number(let number))?: number.text
        default: nil
        }
    }

    @Test("JSON records with their keys in another order, or other keys, are read by their own names; alike ones share columns")
    func jsonKeysPerRecord() throws {
        let read = try records("{\"Z_PK\":1,\"a\":\"x\"}\n{\"Z_PK\":2,\"a\":\"y\"}\n{\"a\":\"z\",\"Z_PK\":3}\n{\"Z_PK\":4}\n",
                               "a.ndjson", format: .ndjson)
        #expect(read.map { text($0["Z_PK"]) } == ["1", "2", "3", "4"])
        #expect(read.map { text($0["a"]) } == ["x", "y", "z", nil])
        #expect(read[0].columns === read[1].columns && read[1].columns !== read[2].columns && read[2].columns !== read[3].columns)
    }

    @Test("CSV rows share the header's columns; a field a short row lacks is null")
    func csvHeader() throws {
        let read = try records("Z_PK,a\n1,x\n2\n", "a.csv", format: .csv)
        #expect(read.map { text($0["Z_PK"]) } == ["1", "2"])
        #expect(text(read[0]["a"]) == "x")
        if case .null? = read[1]["a"] {} else { Issue.record("a short row's missing field: \(String(describing: read[1]["a"]))") }
        #expect(read[0].columns === read[1].columns)
    }
}
