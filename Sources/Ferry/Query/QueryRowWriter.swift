import FerryFormats
import FerryStore

/// Writes rows in one `QueryFormat`. Table output is held until the end (column widths depend
/// on every row); the other formats stream.
struct QueryRowWriter {
    let format: QueryFormat
    let columns: [QueryColumn]
    private let encoder: QueryCellEncoder
    /// JSON keys (`"name":`), escaped once.
    private let keys: [[UInt8]]
    private var rows = 0
    /// Table cells, row by row (header first).
    private var table: [[[UInt8]]] = []

    init(format: QueryFormat, columns: [QueryColumn], entityNames: [Int64: [UInt8]], storePath: String) {
        self.format = format
        self.columns = columns
        let escaping: QueryCellEncoder.Escaping = switch format {
        case .table: .none
        case .json, .ndjson: .json
        case .csv: .csv
        }
        encoder = QueryCellEncoder(escaping: escaping, binaryAsSize: format == .table, entityNames: entityNames, storePath: storePath)
        let jsonEncoder = QueryCellEncoder(escaping: .json, binaryAsSize: false, entityNames: [:], storePath: storePath)
        keys = columns.map { column in
            var key: [UInt8] = []
            jsonEncoder.appendText(Array(column.name.utf8), to: &key)
            return key + [0x3A]
        }
    }

    mutating func begin(_ out: inout [UInt8]) {
        switch format {
        case .json: out.append(0x5B)
        case .ndjson: break
        case .csv:
            for (offset, column) in columns.enumerated() {
                if offset > 0 { out.append(0x2C) }
                encoder.appendText(Array(column.name.utf8), to: &out)
            }
            out.append(contentsOf: [0x0D, 0x0A])
        case .table:
            table.append(columns.map { Array($0.name.utf8) })
        }
    }

    /// - Throws: `.unreadableValue` for a value that cannot be shown.
    mutating func row(_ statement: SQLiteStatement, _ out: inout [UInt8]) throws(QueryError) {
        defer { rows += 1 }
        switch format {
        case .json, .ndjson:
            if format == .json { out.append(contentsOf: rows == 0 ? [0x0A] : [0x2C, 0x0A]) }
            out.append(0x7B)
            for (offset, column) in columns.enumerated() {
                if offset > 0 { out.append(0x2C) }
                out.append(contentsOf: keys[offset])
                if try !cell(column, statement, &out) { out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }
            }
            out.append(0x7D)
            if format == .ndjson { out.append(0x0A) }
        case .csv:
            for (offset, column) in columns.enumerated() {
                if offset > 0 { out.append(0x2C) }
                _ = try cell(column, statement, &out)
            }
            out.append(contentsOf: [0x0D, 0x0A])
        case .table:
            var cells: [[UInt8]] = []
            for column in columns {
                var text: [UInt8] = []
                if try !cell(column, statement, &text) { text = Array("NULL".utf8) }
                cells.append(text.map { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 ? 0x20 : $0 })
            }
            table.append(cells)
        }
    }

    /// Appends a cell (`QueryCellEncoder.append`); false for NULL.
    private func cell(_ column: QueryColumn, _ statement: SQLiteStatement, _ out: inout [UInt8]) throws(QueryError) -> Bool {
        do { return try encoder.append(column, of: statement, to: &out) } catch {
            let (store, entity, key) = (encoder.storePath, encoder.entityName(of: statement), statement.int64(at: 0))
            switch error {
            case .external(let problem):
                throw .unreadableValue(store: store, entity: entity, primaryKey: key, attribute: column.name, reason: problem)
            case .invalidText:
                throw .invalidText(store: store, entity: entity, primaryKey: key, attribute: column.name)
            case .misfit(let reason):
                throw .misfitValue(store: store, entity: entity, primaryKey: key, attribute: column.name, reason: reason)
            }
        }
    }

    mutating func end(_ out: inout [UInt8]) {
        switch format {
        case .json: out.append(contentsOf: rows == 0 ? [0x5D, 0x0A] : [0x0A, 0x5D, 0x0A])
        case .ndjson, .csv: break
        case .table: renderTable(&out)
        }
    }

    /// Columns padded to their widest cell (in terminal columns, `DisplayWidth`), numbers
    /// right-aligned, a rule under the header, and a count line.
    private func renderTable(_ out: inout [UInt8]) {
        let cellWidths = table.map { row in row.map { DisplayWidth.of(utf8: $0) } }
        var widths = [Int](repeating: 0, count: columns.count)
        for row in cellWidths { for (index, width) in row.enumerated() { widths[index] = max(widths[index], width) } }
        for (number, row) in table.enumerated() {
            for (index, cell) in row.enumerated() {
                let padding = [UInt8](repeating: 0x20, count: widths[index] - cellWidths[number][index])
                let right = number > 0 && [.primaryKey, .integer, .real, .decimal, .reference].contains(columns[index].kind)
                if index > 0 { out.append(contentsOf: [0x20, 0x20]) }
                if right { out.append(contentsOf: padding) }
                out.append(contentsOf: cell)
                if !right && index < row.count - 1 { out.append(contentsOf: padding) }
            }
            out.append(0x0A)
            if number == 0 {
                out.append(contentsOf: widths.enumerated().flatMap { index, width in
                    (index > 0 ? [0x20, 0x20] : []) + [UInt8](repeating: 0x2D, count: width)
                })
                out.append(0x0A)
            }
        }
        out.append(contentsOf: "(\(rows) \(rows == 1 ? "object" : "objects"))\n".utf8)
    }
}
