import FerryStore

extension LinkOrigin {
    /// The origin of the links of `record`: its line and place in a document, or its source key
    /// when it has neither.
    init(record: Record) {
        let row = record.location.line == nil && record.location.path == nil ? record.key?.storeRow : nil
        self.init(file: record.location.file, line: record.location.line, row: row, path: record.location.path)
    }

    /// As a reject locates a record: `tasks.json:40 [2]`, `KYTask.sqlite Z_PK 19`.
    var location: SourceLocation {
        SourceLocation(file: file, line: line, path: path ?? row.map { "Z_PK \($0)" })
    }
}
