import FerryFormats
import FoundationEssentials

/// Reads the records of one export file back, in file order, as cells by column name; gzip is
/// detected from the bytes. NDJSON, JSON and CSV are streamed; property lists are decoded whole.
/// The file is one of the folder's own, opened by `BackupFolderFile` and checked (`CheckedBackup`).
///
/// A record's cells come in the order of its columns (`ExportRecordCells`), the columns shared by
/// the records that have the same ones: a CSV file's header, or a JSON record's keys when they are
/// the previous record's. A dictionary per record (a hash per name, built, then looked up) made a
/// restore of a million small records 7 times slower than their import.
final class ExportFileReader {
    let path: String
    private var next: () throws -> ExportRecordCells?

    init(_ file: FileByteSource, format: ExportFormat) throws(ExportError) {
        let path = file.name
        self.path = path
        do {
            let source = try GzipDetectingByteSource(file)
            switch format {
            case .ndjson, .json:
                let reader = JSONRecordBox(JSONReader(source: source))
                var columns = ExportColumns([])
                next = {
                    guard let record = try reader.next() else { return nil }
                    guard case .object(let members) = record else { throw ExportError.verification(path: path, reason: "a record is not a JSON object") }
                    columns = columns.same(as: members.map(\.key))
                    return ExportRecordCells(columns: columns, values: members.map { ExportCell.json($0.value) })
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
                var columns = ExportColumns([])
                next = {
                    guard let item = iterator.next() else { return nil }
                    guard case .dictionary(let entries) = item else { throw ExportError.verification(path: path, reason: "a record is not a dictionary") }
                    let ordered = entries.sorted { $0.key < $1.key }
                    columns = columns.same(as: ordered.map(\.key))
                    return ExportRecordCells(columns: columns, values: ordered.map { ExportCell.plist($0.value) })
                }
            }
        } catch let error as ExportError {
            throw error
        } catch {
            throw .verification(path: path, reason: "cannot read: \(ErrorText.reason(of: error, at: path))")
        }
    }

    /// The next record, or nil after the last.
    func nextRecord() throws(ExportError) -> ExportRecordCells? {
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

/// Holds a non-copyable CSV reader for a closure; rows become cells of the header's columns (a
/// field a short row lacks is null).
private final class CSVRowBox {
    private var reader: CSVReader
    private let columns: ExportColumns
    init(_ reader: consuming CSVReader) {
        columns = ExportColumns(reader.header ?? [])
        self.reader = reader
    }

    func next() throws -> ExportRecordCells? {
        guard let row = try reader.nextRow() else { return nil }
        try row.check()
        var values: [ExportCell] = []
        values.reserveCapacity(columns.names.count)
        for index in columns.names.indices {
            values.append(index < row.count ? .field(try row.string(index), quoted: row.wasQuoted(index)) : .null)
        }
        return ExportRecordCells(columns: columns, values: values)
    }
}
