import FerryFormats
import FerryMigration
import FerryModel
import FerryTestSupport
import Testing

/// JSON and property-list records are decoded on a read-ahead thread: records must still come in
/// document order, the unknown keys found anywhere (even in the last record) must be complete at
/// the end, and a broken document must fail after the records read before it.
@Suite("document record readers: read-ahead keeps order, unknown keys and errors")
struct DocumentRecordReaderTests {
    private func decoder() throws -> DocumentRecordDecoder {
        let bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        let model = try #require(bundle.version(named: "Workspace 1"))
        let schema = try #require(RecordSchema(model: model, entityName: "UploadEntity"))
        return try DocumentRecordDecoder(schema: schema, model: model)
    }

    /// `count` NDJSON records with `time = i`; the last one also has an unknown key `late`.
    private func lines(_ count: Int, tail: String = "") -> [UInt8] {
        var text = ""
        for index in 0..<count {
            let late = index == count - 1 ? ", \"late\": 1" : ""
            text += "{\"fileName\": \"f\(index).png\", \"time\": \(index)\(late)}\n"
        }
        return Array((text + tail).utf8)
    }

    private func jsonReader(_ bytes: [UInt8], layout: JSONRecordLayout) throws -> DocumentRecordReader {
        let json = JSONReader(source: MemoryByteSource(bytes, name: "uploads.ndjson"), layout: layout, bufferSize: 4096)
        return DocumentRecordReader(json: json, decoder: try decoder())
    }

    @Test("NDJSON records over several batches come in order; a key of the last record is reported")
    func ndjsonOrderAndLateKeys() throws {
        let count = 1_700
        var records = try jsonReader(lines(count), layout: .lines)
        var seen = 0
        while let result = try records.next() {
            guard case let .record(record, _) = result else {
                Issue.record("unexpected \(result)")
                break
            }
            #expect(record.values.contains(.integer(Int64(seen))))
            #expect(record.location.line == seen + 1)
            seen += 1
        }
        #expect(seen == count)
        #expect(records.unknownKeys == ["late"])
        #expect(try records.next() == nil)
    }

    @Test("a broken JSON array fails after every record before the damage, and again on later calls")
    func brokenArray() throws {
        let objects = (0..<1_100).map { "{\"fileName\": \"f\($0).png\"}" }.joined(separator: ",\n")
        var records = try jsonReader(Array("[\n\(objects),\n{\"fileName\": ]".utf8), layout: .automatic)
        var results = 0
        var failure: RecordSourceError?
        do {
            while try records.next() != nil { results += 1 }
        } catch {
            failure = error
        }
        #expect(results == 1_100)
        #expect(failure?.description.contains("uploads.ndjson") == true)
        #expect(throws: RecordSourceError.self) { try records.next() }
    }

    @Test("property-list records come in order and report the unknown keys of the last one")
    func plistOrderAndLateKeys() throws {
        let count = 1_200
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><array>\n"
        for index in 0..<count {
            let late = index == count - 1 ? "<key>late</key><true/>" : ""
            text += "<dict><key>fileName</key><string>f\(index).png</string><key>time</key><integer>\(index)</integer>\(late)</dict>\n"
        }
        text += "</array></plist>\n"
        let plist = PlistRecordReader(source: MemoryByteSource(Array(text.utf8), name: "uploads.plist"))
        var records = DocumentRecordReader(plist: plist, decoder: try decoder())
        var seen = 0
        while let result = try records.next() {
            guard case let .record(record, _) = result else {
                Issue.record("unexpected \(result)")
                break
            }
            #expect(record.values.contains(.integer(Int64(seen))))
            seen += 1
        }
        #expect(seen == count)
        #expect(records.unknownKeys == ["late"])
    }

    @Test("objects list their keys in any order: each value reaches its attribute whatever the previous object's order")
    func keysInAnyOrder() throws {
        var decoder = try decoder()
        let fileName = try #require(decoder.schema.index(of: "fileName")), time = try #require(decoder.schema.index(of: "time"))
        let objects = [
            "{\"fileName\": \"a.png\", \"time\": 1}", "{\"time\": 2, \"fileName\": \"b.png\"}",
            "{\"fileName\": \"c.png\"}", "{\"nope\": 0, \"time\": 4, \"fileName\": \"d.png\"}", "{\"time\": 5}",
        ]
        var decoded: [String] = []
        for object in objects {
            let value = DocumentValue(try JSONValue(parsing: Array(object.utf8)))
            guard case let .record(record, _) = try decoder.decodeRecord(value, at: SourceLocation(file: "t.json"), container: "an object") else {
                Issue.record("rejected \(object)")
                continue
            }
            decoded.append("\(record.values[fileName]) \(record.values[time])")
        }
        #expect(decoded == ["string(\"a.png\") integer(1)", "string(\"b.png\") integer(2)", "string(\"c.png\") null",
                            "string(\"d.png\") integer(4)", "null integer(5)"])
        #expect(decoder.unknownKeys == ["nope"])
    }

    @Test("a key twice in an object rejects that record, naming the key, even where the values agree; the next record is decoded")
    func duplicateKeys() throws {
        var decoder = try decoder()
        let objects = [
            "{\"fileName\": \"a.png\", \"time\": \"not a number\", \"time\": 1}", "{\"fileName\": \"b.png\", \"time\": 2}",
            "{\"time\": 3, \"fileName\": \"c.png\", \"fileName\": \"c.png\"}", "{\"time\": 4, \"nope\": 0, \"nope\": 1}",
        ]
        var outcomes: [String] = []
        for (line, object) in objects.enumerated() {
            let value = DocumentValue(try JSONValue(parsing: Array(object.utf8)))
            switch try decoder.decodeRecord(value, at: SourceLocation(file: "t.json", line: line + 1), container: "an object") {
            case .record: outcomes.append("record")
            case .reject(let reject): outcomes.append("\(reject.location): \(reject.reason)")
            }
        }
        #expect(outcomes == [
            "t.json:1: key \"time\" appears more than once in one object: which value is meant cannot be told", "record",
            "t.json:3: key \"fileName\" appears more than once in one object: which value is meant cannot be told",
            "t.json:4: key \"nope\" appears more than once in one object: which value is meant cannot be told",
        ])
    }
}
