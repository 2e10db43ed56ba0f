/// The cells of one record read back from an export file (`ExportFileReader`), in the order of
/// its columns.
struct ExportRecordCells {
    let columns: ExportColumns
    let values: [ExportCell]

    /// The cell of column `position` (`ExportColumns.position(of:)`); null when there is none.
    func cell(at position: Int?) -> ExportCell {
        position.map { values[$0] } ?? .null
    }

    /// The cell named `name`; nil when the record has none (a reader of many records looks its
    /// positions up once per `columns`, with `cell(at:)`).
    subscript(name: String) -> ExportCell? {
        columns.position(of: name).map { values[$0] }
    }
}

/// The names of a record's cells, in order, shared by the records of a file that have the same
/// ones, so that a reader looks each name up once per set of columns, not once per record.
final class ExportColumns {
    let names: [String]
    /// Each name's position; a name given twice is its last (as a JSON object's last value wins).
    private let positions: [String: Int]

    init(_ names: [String]) {
        self.names = names
        positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The position of the cell named `name`; nil when the record has none.
    func position(of name: String) -> Int? {
        positions[name]
    }

    /// These columns when `names` are theirs (compared without hashing), else new ones.
    func same(as names: [String]) -> ExportColumns {
        names == self.names ? self : ExportColumns(names)
    }
}
