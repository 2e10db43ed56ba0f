import FerryFormats
import FoundationEssentials

/// Reads the records of one export file back, in file order, as cells by column name; gzip is
/// detected from the bytes. NDJSON, JSON and CSV are streamed; property lists are decoded whole.
/// The file is one of the folder's own, opened by `BackupFolderFile` and checked (`CheckedBackup`).
final class ExportFileReader {
    let path: String
    private var next: () throws -> [String: ExportCell]?

    init(_ file: FileByteSource, format: ExportFormat) throws(ExportError) {
        let path = file.name
        self.path = path
        do {
            let source = try GzipDetectingByteSource(file)
            switch format {
            case .ndjson, .json:
                let reader = JSONRecordBox(JSONReader(source: source))
                next = {
                    guard let record = try reader.next() else { return nil }
                    guard case .object(let members) = record else { throw ExportError.verification(path: path, reason: "a record is not a JSON object") }
                    return Dictionary(members.map { ($0.key, ExportCell.json($0.value)) }, uniquingKeysWith: { _, last in last })
                }
            case .csv:
                let reader = CSVRowBox(try CSVReader(source: source))
                next = { try reader.next() }
            case .plist, .bplist:
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 64 * 1024)
                while true {
                    let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
                    if count == 0 { break }
                    bytes.append(contentsOf: buffer[..<count])
                }
                guard case .array(let items) = try PropertyList.decode(bytes) else {
                    throw ExportError.verification(path: path, reason: "the property list is not an array")
                }
                var iterator = items.makeIterator()
                next = {
                    guard let item = iterator.next() else { return nil }
                    guard case .dictionary(let entries) = item else { throw ExportError.verification(path: path, reason: "a record is not a dictionary") }
                    return entries.mapValues { ExportCell.plist($0) }
                }
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw .verification(path: path, reason: "cannot read: \(ErrorText.reason(of: error, at: path))")
        }
    }

    /// The next record, or nil after the last.
    func nextRecord() throws(ExportError) -> [String: ExportCell]? {
        do { return try next() } catch let error as ExportError { throw error } catch {
            throw .verification(path: path, reason: "cannot read: \(ErrorText.reason(of: error, at: path))")
        }
    }
}

/// Holds a non-copyable JSON reader for a closure.
private final class JSONRecordBox {
    private var reader: JSONReader
    init(_ reader: consuming JSONReader) { self.reader = reader }
    func next() throws -> JSONValue? { try reader.nextRecord()?.value }
}

/// Holds a non-copyable CSV reader for a closure; rows become cells by header name.
private final class CSVRowBox {
    private var reader: CSVReader
    private let header: [String]
    init(_ reader: consuming CSVReader) {
        header = reader.header ?? []
        self.reader = reader
    }

    func next() throws -> [String: ExportCell]? {
        guard let row = try reader.nextRow() else { return nil }
        try row.check()
        var cells: [String: ExportCell] = [:]
        for (index, name) in header.enumerated() where index < row.count {
            cells[name] = .field(try row.string(index), quoted: row.wasQuoted(index))
        }
        return cells
    }
}
