import FoundationEssentials
import Testing
import FerryFixtures

@Suite("Fixture generator")
struct FixtureGeneratorTests {
    static let quirky = UploadQuirkRates(
        duplicate: 0.1, missingThumbnail: 0.5, emptyName: 0.05, awkwardName: 0.1, cjkName: 0.2,
        badSize: 0.1, outOfRangeType: 0.05, reject: 0.05)
    static let quirkyTasks = TaskQuirkRates(
        duplicateID: 0.1, cjkTitle: 0.2, outOfRangeLevel: 0.05, danglingAttachment: 0.05, reject: 0.06)

    func uploads(seed: UInt64 = 7, count: Int = 300, rates: UploadQuirkRates = quirky) throws -> UploadRecordGenerator {
        try UploadRecordGenerator(seed: seed, count: count, rates: rates)
    }

    func tasks(seed: UInt64 = 11, count: Int = 300, uploads: UploadRecordGenerator) throws -> TaskRecordGenerator {
        try TaskRecordGenerator(seed: seed, count: count, rates: Self.quirkyTasks, uploads: uploads)
    }

    @Test("Same seed and count give byte-identical output; another seed gives other bytes", arguments: FixtureFormat.allCases)
    func determinism(format: FixtureFormat) throws {
        let first = try FixtureTestSupport.write(uploads(seed: 1), as: format)
        let again = try FixtureTestSupport.write(uploads(seed: 1), as: format)
        let other = try FixtureTestSupport.write(uploads(seed: 2), as: format)
        #expect(first == again)
        #expect(first != other)
        let up = try uploads()
        let taskBytes = try FixtureTestSupport.write(tasks(seed: 3, uploads: up), as: format)
        #expect(taskBytes == (try FixtureTestSupport.write(tasks(seed: 3, uploads: up), as: format)))
        #expect(taskBytes != (try FixtureTestSupport.write(tasks(seed: 4, uploads: up), as: format)))
    }

    @Test("Records are random access: record i does not depend on the order of generation")
    func randomAccess() throws {
        let generator = try uploads(count: 200)
        let forward = Array(generator)
        let backward = generator.indices.reversed().map { generator[$0] }
        #expect(forward == Array(backward.reversed()))
        #expect(generator.count == 200)
    }

    @Test("CSV has a header of field names and one row per record, quoted fields included")
    func csvStructure() throws {
        let generator = try uploads()
        let rows = FixtureTestSupport.parseCSV(try FixtureTestSupport.write(generator, as: .csv))
        #expect(rows.first == UploadRecord.fieldNames)
        try #require(rows.count == generator.count + 1)
        #expect(rows.allSatisfy { $0.count == UploadRecord.fieldNames.count })
        for (row, record) in zip(rows.dropFirst(), generator) {
            let expected = UploadRecord.fieldNames.indices.map { FixtureTestSupport.csvText(record.value(ofField: $0)) }
            #expect(row == expected)
        }
        #expect(generator.contains { $0.quirks.contains(.awkwardName) && $0.fileName?.contains("\n") == true })
    }

    @Test("NDJSON lines and the JSON array decode back to the same records")
    func jsonRoundTrip() throws {
        let upload = try uploads()
        let task = try tasks(uploads: upload)
        let ndjson = try FixtureTestSupport.write(task, as: .ndjson)
        let lines = ndjson.split(separator: 10, omittingEmptySubsequences: false)
        #expect(lines.last?.isEmpty == true)
        try #require(lines.count == task.count + 1)
        for (line, record) in zip(lines, task) {
            let decoded = try JSONDecoder().decode(DecodedTask.self, from: Data(line))
            #expect(decoded.record == record.exported)
        }
        let array = try FixtureTestSupport.write(task, as: .jsonArray)
        #expect(try JSONDecoder().decode([DecodedTask].self, from: Data(array)).map(\.record) == task.map(\.exported))
        let uploadArray = try FixtureTestSupport.write(upload, as: .jsonArray)
        #expect(try JSONDecoder().decode([DecodedUpload].self, from: Data(uploadArray)).map(\.record) == upload.map(\.exported))
        let empty = try FixtureTestSupport.write(try uploads(count: 0), as: .jsonArray)
        #expect(try JSONDecoder().decode([DecodedUpload].self, from: Data(empty)).isEmpty)
    }

    @Test("The XML plist decodes back to the same records")
    func plistRoundTrip() throws {
        let upload = try uploads(count: 120)
        let plist = try FixtureTestSupport.write(upload, as: .xmlPlist)
        #expect(try PropertyListDecoder().decode([DecodedUpload].self, from: Data(plist)).map(\.record) == upload.map(\.exported))
        let task = try tasks(count: 120, uploads: upload)
        let taskPlist = try FixtureTestSupport.write(task, as: .xmlPlist)
        #expect(try PropertyListDecoder().decode([DecodedTask].self, from: Data(taskPlist)).map(\.record) == task.map(\.exported))
    }

    @Test("Small chunks reach the sink in order and add up to the same bytes")
    func streaming() throws {
        let generator = try uploads(count: 100)
        let whole = try FixtureTestSupport.write(generator, as: .xmlPlist)
        final class Collector { var bytes: [UInt8] = []; var chunks = 0 }
        let collector = Collector()
        var writer = FixtureWriter<UploadRecord, ClosureByteSink>(format: .xmlPlist, sink: ClosureByteSink {
            collector.bytes += $0
            collector.chunks += 1
        }, chunkSize: 512)
        try writer.write(contentsOf: generator)
        try writer.finish()
        #expect(collector.bytes == whole)
        #expect(collector.chunks > 10)
        #expect(writer.recordCount == 100)
    }

    @Test("Upload quirks occur at the requested rates and the values match the quirk flags")
    func uploadQuirkRates() throws {
        let rates = Self.quirky
        let generator = try uploads(count: 20_000, rates: rates)
        var counts: [UInt16: Int] = [:]
        let sizePattern = /^[0-9]+\.[0-9]{2}$/
        for (index, record) in generator.enumerated() {
            for bit in 0..<16 where record.quirks.rawValue & (1 << bit) != 0 { counts[1 << bit, default: 0] += 1 }
            if record.quirks.contains(.duplicate) {
                #expect(record.exported == generator[generator.canonicalIndex(atOrBefore: index - 1)].exported)
            }
            #expect((record.imageData == nil) == record.quirks.contains(.missingThumbnail))
            if let png = record.imageData {
                #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.suffix(8).starts(with: Array("IEND".utf8)))
            }
            let sizeOK = record.fileSize.map { $0.wholeMatch(of: sizePattern) != nil } ?? false
            #expect(sizeOK != record.quirks.contains(.badSize))
            #expect((record.fileName == "") == record.quirks.contains(.emptyName))
            if record.quirks.contains(.cjkName) { #expect(record.fileName?.utf8.contains { $0 >= 0x80 } == true) }
            if case .text = record.fileType { #expect(record.quirks.contains(.badFileType)) }
            if case .text = record.time { #expect(record.quirks.contains(.badTime)) }
            if case .integer(let type) = record.fileType { #expect((0...5).contains(type) != record.quirks.contains(.outOfRangeType)) }
        }
        func rate(_ quirk: UploadQuirks) -> Double { Double(counts[quirk.rawValue, default: 0]) / Double(generator.count) }
        let duplicates = rate(.duplicate)
        #expect(abs(duplicates - rates.duplicate) < 0.015)
        // Non-duplicate quirks are drawn for canonical rows and copied by duplicates, so their
        // rates hold over all rows; rejects are never copied.
        #expect(abs(rate(.missingThumbnail) - rates.missingThumbnail) < 0.02)
        #expect(abs(rate(.cjkName) - rates.cjkName) < 0.015)
        #expect(abs(rate(.awkwardName) - rates.awkwardName) < 0.015)
        #expect(abs(rate(.emptyName) - rates.emptyName) < 0.01)
        #expect(abs(rate(.badSize) - rates.badSize) < 0.015)
        #expect(abs(rate(.outOfRangeType) - rates.outOfRangeType) < 0.01)
        let rejects = rate(.badFileType) + rate(.badTime)
        #expect(abs(rejects - rates.reject * (1 - rates.duplicate)) < 0.01)
        #expect(generator.filter(\.quirks.isRejected).count == counts[UploadQuirks.badFileType.rawValue, default: 0] + counts[UploadQuirks.badTime.rawValue, default: 0])
    }

    @Test("No quirks: distinct, clean records")
    func noQuirks() throws {
        let generator = try UploadRecordGenerator(seed: 5, count: 2_000, rates: .none)
        #expect(generator.allSatisfy { $0.quirks.isEmpty })
        #expect(Set(generator.compactMap(\.urlPath)).count == 2_000)
        let tasks = try TaskRecordGenerator(seed: 6, count: 2_000, rates: .none, uploads: generator)
        #expect(tasks.allSatisfy { $0.quirks.isEmpty })
        #expect(Set(tasks.map(\.taskID)).count == 2_000)
        // An upload belongs to one task: no attachment is named by two tasks (an import would
        // keep the last claim and warn), and tasks still have attachments.
        let attachments = tasks.flatMap(\.attachments)
        #expect(Set(attachments).count == attachments.count)
        #expect(attachments.count > 500)
        let fewerTasks = try TaskRecordGenerator(seed: 6, count: 500, rates: .none, uploads: generator)
        let shared = fewerTasks.flatMap(\.attachments)
        #expect(Set(shared).count == shared.count)
        #expect(shared.count > 500)
    }

    @Test("Task quirks occur at the requested rates; attachments name kept uploads except dangling ones")
    func taskQuirkRates() throws {
        let upload = try uploads(count: 3_000)
        let keptPaths = Set(upload.filter { !$0.quirks.isRejected }.compactMap(\.urlPath))
        let generator = try tasks(count: 10_000, uploads: upload)
        var seenIDs: Set<FieldValue> = []
        var counts: [UInt16: Int] = [:]
        for record in generator {
            for bit in 0..<16 where record.quirks.rawValue & (1 << bit) != 0 { counts[1 << bit, default: 0] += 1 }
            let unknown = record.attachments.filter { !keptPaths.contains($0) }
            #expect(unknown.count == (record.quirks.contains(.danglingAttachment) ? 1 : 0))
            #expect(Set(record.attachments).count == record.attachments.count)
            if !record.quirks.contains(.badTaskID) {
                let seen = !seenIDs.insert(record.taskID).inserted
                #expect(seen == record.quirks.contains(.duplicateID))
            }
            if !record.quirks.contains(.badDate) { #expect(record.taskDate?.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil) }
        }
        func rate(_ quirk: TaskQuirks) -> Double { Double(counts[quirk.rawValue, default: 0]) / Double(generator.count) }
        let rates = Self.quirkyTasks
        #expect(abs(rate(.duplicateID) - rates.duplicateID) < 0.015)
        #expect(abs(rate(.cjkTitle) - rates.cjkTitle) < 0.02)
        #expect(abs(rate(.outOfRangeLevel) - rates.outOfRangeLevel) < 0.01)
        #expect(abs(rate(.danglingAttachment) - rates.danglingAttachment) < 0.01)
        #expect(abs(rate(.badTaskID) + rate(.badDate) + rate(.badRemindTime) - rates.reject) < 0.01)
        #expect(generator.contains { $0.taskDesc?.contains("\n") == true })
    }

    @Test("Invalid configurations are refused with a typed error")
    func invalidConfiguration() {
        #expect(throws: FixtureConfigurationError.negativeCount(-1)) { try UploadRecordGenerator(seed: 0, count: -1) }
        #expect(throws: FixtureConfigurationError.rateOutOfRange(name: "duplicate", value: 1.5)) {
            try UploadRecordGenerator(seed: 0, count: 1, rates: UploadQuirkRates(duplicate: 1.5))
        }
        #expect(throws: FixtureConfigurationError.exclusiveRatesExceedOne(names: "emptyName + awkwardName + cjkName", sum: 1.2)) {
            try UploadRecordGenerator(seed: 0, count: 1, rates: UploadQuirkRates(emptyName: 0.5, awkwardName: 0.5, cjkName: 0.2))
        }
    }
}
