import FerryFormats
import FerryMigration
import FerryModel
import FerryTestSupport
import Testing

/// The CSV record reader parses on a read-ahead thread: results must still come in file order,
/// rejects in place, a source error after the results read before it, and dropping the reader
/// early must not hang.
@Suite("CSV record reader: read-ahead keeps order and errors")
struct CSVRecordReaderTests {
    private func schema() throws -> RecordSchema {
        let bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        let model = try #require(bundle.version(named: "Workspace 1"))
        return try #require(RecordSchema(model: model, entityName: "UploadEntity"))
    }

    /// A header and `count` rows; row `i` has `time = i`, and every 97th row has a bad fileType.
    private func uploads(_ count: Int, tail: String = "") -> [UInt8] {
        var text = "fileName,fileType,time,imageData\n"
        for index in 0..<count {
            text += "f\(index).png,\(index % 97 == 5 ? "x" : "1"),\(index),QUJD\n"
        }
        return Array((text + tail).utf8)
    }

    private func reader(_ bytes: [UInt8]) throws -> CSVRecordReader {
        let csv = try CSVReader(source: MemoryByteSource(bytes, name: "uploads.csv"), bufferSize: 4096)
        return try CSVRecordReader(csv: csv, schema: try schema())
    }

    @Test("several batches come out in file order, rejects where their rows are")
    func order() throws {
        let count = 2_500
        var records = try reader(uploads(count))
        let timeIndex = try #require(try schema().index(of: "time"))
        var seen = 0
        while let result = try records.next() {
            switch result {
            case let .record(record, _):
                #expect(record.values[timeIndex] == .integer(Int64(seen)))
                #expect(record.location.line == seen + 2)
            case .reject(let reject):
                #expect(seen % 97 == 5)
                #expect(reject.location.line == seen + 2)
                #expect(reject.attribute == "fileType")
            }
            seen += 1
        }
        #expect(seen == count)
        #expect(try records.next() == nil)
    }

    @Test("records the consumer keeps stay as read while later rows reuse the memory of spent ones")
    func keptRecordsUnchanged() throws {
        let count = 2_500
        var records = try reader(uploads(count))
        let schema = try schema()
        let time = try #require(schema.index(of: "time")), name = try #require(schema.index(of: "fileName"))
        let image = try #require(schema.index(of: "imageData"))
        var kept: [Record] = []
        while let result = try records.next() {
            if case .record(let record, _) = result { kept.append(record) }
        }
        let expected = (0..<count).filter { $0 % 97 != 5 }
        #expect(kept.count == expected.count)
        for (record, row) in zip(kept, expected) {
            #expect(record.values[time] == .integer(Int64(row)))
            #expect(record.values[name] == .string("f\(row).png"))
            #expect(record.values[image] == .binary(Array("ABC".utf8)))
            #expect(record.values.count == schema.attributes.count)
        }
    }

    @Test("a malformed end of file comes after every earlier row, and again on later calls")
    func stickyError() throws {
        var records = try reader(uploads(1_200, tail: "late.png,1,7,\"QUJD\n"))
        var results = 0
        var failure: RecordSourceError?
        do {
            while try records.next() != nil { results += 1 }
        } catch {
            failure = error
        }
        #expect(results == 1_200)
        #expect(failure?.description.contains("uploads.csv") == true)
        #expect(throws: RecordSourceError.self) { try records.next() }
    }

    @Test("dropping readers after a few records does not wait for the rest of the file")
    func earlyDrop() throws {
        for _ in 0..<20 {
            var records = try reader(uploads(5_000))
            #expect(try records.next() != nil)
        }
    }
}
