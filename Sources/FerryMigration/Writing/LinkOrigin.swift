/// Where a link was given, for reporting it when it finds nothing: the file and line of the
/// record that named it, or, for a record of a store (no lines), its `Z_PK` in that store.
struct LinkOrigin {
    let file: String
    let line: Int?
    /// The source record's `Z_PK` in the store it was read from.
    let row: Int64?

    init(file: String, line: Int?, row: Int64?) {
        self.file = file
        self.line = line
        self.row = row
    }

    /// The origin of the links of `record`: its line, or its source key when it has no line.
    init(record: Record) {
        var row: Int64?
        if record.location.line == nil, case .integer(let key) = record.key { row = key }
        self.init(file: record.location.file, line: record.location.line, row: row)
    }

    /// As a reject locates a record: `tasks.json:40`, `KYTask.sqlite Z_PK 19`.
    var location: SourceLocation {
        SourceLocation(file: file, line: line, path: row.map { "Z_PK \($0)" })
    }
}
