import FoundationEssentials
import FerryFixtures

/// Helpers for the fixture generator tests: a reference RFC 4180 reader, loose decoders for the
/// JSON and plist exports, and the committed `Fixtures/` folder.
enum FixtureTestSupport {
    /// `Fixtures/` of this package: up from this file to the package root.
    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func fixture(_ relativePath: String) throws -> Data {
        try Data(contentsOf: fixturesDirectory.appendingPathComponent(relativePath))
    }

    /// Splits CSV bytes into rows of fields per RFC 4180 (quoted fields may hold commas, quotes
    /// and line breaks; rows end with CRLF or LF).
    static func parseCSV(_ bytes: [UInt8]) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var i = 0
        func endField() {
            row.append(String(decoding: field, as: UTF8.self))
            field.removeAll()
        }
        while i < bytes.count {
            let byte = bytes[i]
            if inQuotes {
                if byte == 34 {
                    if i + 1 < bytes.count && bytes[i + 1] == 34 {
                        field.append(34)
                        i += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == 34 {
                inQuotes = true
            } else if byte == 44 {
                endField()
            } else if byte == 10 || byte == 13 {
                if byte == 13 && i + 1 < bytes.count && bytes[i + 1] == 10 { i += 1 }
                endField()
                rows.append(row)
                row = []
            } else {
                field.append(byte)
            }
            i += 1
        }
        if !field.isEmpty || !row.isEmpty {
            endField()
            rows.append(row)
        }
        return rows
    }

    /// The CSV text `FixtureFormat.csv` promises for a field value.
    static func csvText(_ value: FieldValue) -> String {
        switch value {
        case .absent: ""
        case .text(let text): text
        case .integer(let number): String(number)
        case .boolean(let flag): flag ? "1" : "0"
        case .bytes(let bytes): Data(bytes).base64EncodedString()
        case .texts(let texts): texts.joined(separator: ";")
        }
    }

    static func write<Record: FixtureRecord, Records: Sequence>(
        _ records: Records, as format: FixtureFormat, chunkSize: Int = 1 << 16
    ) throws -> [UInt8] where Records.Element == Record {
        var writer = FixtureWriter<Record, ByteArraySink>(format: format, sink: ByteArraySink(), chunkSize: chunkSize)
        try writer.write(contentsOf: records)
        try writer.finish()
        return writer.sink.bytes
    }
}

/// An integer or a string: how a legacy export may spell an integer field.
enum LooseInteger: Decodable, Equatable {
    case integer(Int64)
    case text(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .integer(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    var fieldValue: FieldValue {
        switch self {
        case .integer(let number): .integer(number)
        case .text(let text): .text(text)
        }
    }
}

/// An upload record as read back from JSON or a plist.
struct DecodedUpload: Decodable {
    var fileName: String?
    var fileSize: String?
    var fileType: LooseInteger?
    var finishStatus: Bool?
    var imageData: Data?
    var time: LooseInteger?
    var urlPath: String?

    var record: UploadRecord {
        UploadRecord(
            fileName: fileName, fileSize: fileSize, fileType: fileType?.fieldValue ?? .absent,
            finishStatus: finishStatus, imageData: imageData.map { [UInt8]($0) },
            time: time?.fieldValue ?? .absent, urlPath: urlPath)
    }
}

/// A task record as read back from JSON or a plist.
struct DecodedTask: Decodable {
    var attachments: [String]?
    var isComplete: Bool?
    var remindTime: String?
    var tags: [String]?
    var taskDate: String?
    var taskDesc: String?
    var taskID: LooseInteger?
    var taskLevel: LooseInteger?
    var taskTitle: String?

    var record: TaskRecord {
        TaskRecord(
            attachments: attachments ?? [], isComplete: isComplete, remindTime: remindTime, tags: tags ?? [],
            taskDate: taskDate, taskDesc: taskDesc, taskID: taskID?.fieldValue ?? .absent,
            taskLevel: taskLevel?.fieldValue ?? .absent, taskTitle: taskTitle)
    }
}

extension UploadRecord {
    /// The record without its quirk annotations, as an export would carry it.
    var exported: UploadRecord {
        var copy = self
        copy.quirks = []
        return copy
    }
}

extension TaskRecord {
    /// The record without its quirk annotations, as an export would carry it.
    var exported: TaskRecord {
        var copy = self
        copy.quirks = []
        return copy
    }
}
