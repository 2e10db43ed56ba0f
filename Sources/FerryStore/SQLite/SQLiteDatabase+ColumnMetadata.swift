import CSQLite

extension SQLiteDatabase {
    /// What SQLite keeps of one column's declaration (`sqlite3_table_column_metadata`): its
    /// collating sequence (`BINARY` unless declared otherwise) and whether it is `NOT NULL`.
    func columnMetadata(table: String, column: String) throws(SQLiteError) -> (collation: String, isNotNull: Bool) {
        let handle = try openHandle(sql: nil)
        var collation: UnsafePointer<CChar>?
        var notNull: Int32 = 0
        let status = sqlite3_table_column_metadata(handle, "main", table, column, nil, &collation, &notNull, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
        return (collation.map { String(cString: $0) } ?? "BINARY", notNull != 0)
    }
}
