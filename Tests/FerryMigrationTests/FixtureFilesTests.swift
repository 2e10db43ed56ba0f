import FoundationEssentials
import Testing
import FerryFixtures

/// Checks the committed `Fixtures/legacy/` files against what `Fixtures/README.md` says of them.
@Suite("Committed legacy fixtures")
struct FixtureFilesTests {
    /// One element of the uploads plist: an upload dictionary, or anything else.
    enum PlistElement: Decodable {
        case upload(DecodedUpload)
        case other

        init(from decoder: any Decoder) throws {
            self = (try? DecodedUpload(from: decoder)).map(PlistElement.upload) ?? .other
        }
    }

    static let danglingAttachment = "/remote/uploads/2014/09/ghost.jpg"

    func csvRows() throws -> [[String]] {
        FixtureTestSupport.parseCSV([UInt8](try FixtureTestSupport.fixture("legacy/uploads.csv")))
    }

    func plistElements() throws -> [PlistElement] {
        try PropertyListDecoder().decode([PlistElement].self, from: FixtureTestSupport.fixture("legacy/uploads.plist"))
    }

    func jsonTasks() throws -> [DecodedTask] {
        try JSONDecoder().decode([DecodedTask].self, from: FixtureTestSupport.fixture("legacy/tasks.json"))
    }

    /// The decodable lines of tasks.ndjson, and the number of lines that are not JSON.
    func ndjsonTasks() throws -> (tasks: [DecodedTask], invalid: Int) {
        let lines = try FixtureTestSupport.fixture("legacy/tasks.ndjson").split(separator: 10)
        let decoded = lines.map { try? JSONDecoder().decode(DecodedTask.self, from: Data($0)) }
        return (decoded.compactMap { $0 }, decoded.count { $0 == nil })
    }

    @Test("uploads.csv: header, 34 records, one short row, quoted newlines and commas")
    func uploadsCSV() throws {
        let rows = try csvRows()
        #expect(rows.first == UploadRecord.fieldNames)
        #expect(rows.count == 35)
        #expect(rows.dropFirst().count { $0.count != UploadRecord.fieldNames.count } == 1)
        let names = rows.dropFirst().map(\.[0])
        #expect(names.contains("line one\nline two.txt"))
        #expect(names.contains("Smith, John - contract.pdf"))
        #expect(names.contains("He said \"final\" v2.docx"))
        #expect(names.contains(""))
        let full = rows.dropFirst().filter { $0.count == 7 }
        #expect(full.count - Set(full).count == 3)  // exact duplicates
    }

    @Test("uploads.plist: 21 elements, 20 upload dictionaries")
    func uploadsPlist() throws {
        let elements = try plistElements()
        #expect(elements.count == 21)
        let uploads = elements.compactMap { if case .upload(let upload) = $0 { upload } else { nil } }
        #expect(uploads.count == 20)
        #expect(uploads.contains { $0.fileType == .text("image") })
        #expect(uploads.contains { $0.fileSize == nil && $0.imageData != nil })
    }

    @Test("Task exports: counts, and every attachment names an upload except the documented dangling one")
    func taskAttachments() throws {
        let csvPaths = try csvRows().dropFirst().filter { $0.count == 7 }.map(\.[6])
        let plistPaths = try plistElements().compactMap { if case .upload(let upload) = $0 { upload.urlPath } else { nil } }
        let known = Set(csvPaths + plistPaths)
        let json = try jsonTasks()
        let ndjson = try ndjsonTasks()
        #expect(json.count == 30)
        #expect(ndjson.tasks.count == 22 && ndjson.invalid == 1)
        let unknown = (json + ndjson.tasks).flatMap { $0.attachments ?? [] }.filter { !known.contains($0) }
        #expect(unknown == [Self.danglingAttachment])
        let ids = json.compactMap { if case .integer(let id)? = $0.taskID { id } else { nil } }
        #expect(ids.count - Set(ids).count == 3)  // taskID 2 twice, taskID 7 three times
        let tags = Set((json + ndjson.tasks).flatMap { $0.tags ?? [] })
        #expect(tags.count == 9)
    }
}
