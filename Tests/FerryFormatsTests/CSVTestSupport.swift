import FerryFormats
import FoundationEssentials

/// Shared helpers for the CSV tests: corpus location and whole-input readers.
enum CSVTestSupport {
    /// `../shared/corpus` seen from the package root (three levels above this file).
    static let corpus: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/../shared/corpus"
    }()
    /// Tests that need the external corpus are skipped (visibly) when it is absent.
    static let corpusAvailable = FileManager.default.fileExists(atPath: corpus)
    static let spectrum = corpus + "/conformance/csv-spectrum"
    static let rustExamples = corpus + "/conformance/rust-csv-examples-data/examples/data"

    /// Everything the reader reports about a row, for comparing readings.
    struct Row: Equatable, CustomStringConvertible {
        let line: Int
        let fields: [[UInt8]]
        let quoted: [Bool]
        var description: String {
            "line \(line): " + fields.map { String(decoding: $0, as: UTF8.self).debugDescription }.joined(separator: ",")
        }
    }

    static func rows(_ reader: inout CSVReader) throws -> [Row] {
        var rows: [Row] = []
        while let row = try reader.nextRow() {
            rows.append(Row(
                line: row.line,
                fields: (0..<row.count).map { row.withField($0) { Array($0) } },
                quoted: (0..<row.count).map { row.wasQuoted($0) }))
        }
        return rows
    }

    static func rows(_ bytes: [UInt8], dialect: CSVDialect = .init(hasHeader: false), bufferSize: Int = 256 * 1024) throws -> [Row] {
        var reader = try CSVReader(source: MemoryByteSource(bytes), dialect: dialect, bufferSize: bufferSize)
        return try rows(&reader)
    }

    static func strings(_ reader: inout CSVReader) throws -> [[String]] {
        var rows: [[String]] = []
        while let row = try reader.nextRow() {
            rows.append(try row.strings())
        }
        return rows
    }

    static func strings(_ text: String, dialect: CSVDialect = .init(hasHeader: false), bufferSize: Int = 256 * 1024) throws -> [[String]] {
        var reader = try CSVReader(source: MemoryByteSource(Array(text.utf8)), dialect: dialect, bufferSize: bufferSize)
        return try strings(&reader)
    }

    /// The whole content of a file, read through `FileByteSource`.
    static func fileBytes(_ path: String) throws -> [UInt8] {
        let source = try FileByteSource(path: path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
