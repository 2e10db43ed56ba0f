/// What `TableFileScan` needs to know of a table, asked of SQLite's schema: its root page and
/// where its columns sit in its records. Only plain rowid tables are taken: a table without
/// rowid, with generated columns, or a selected column that is its key is refused.
struct StoredTableShape {
    let rootPage: Int
    /// The table's columns in record order.
    private let columns: [Column]

    private struct Column {
        let name: String
        let declaredType: String
        let hasDefault: Bool
        let isKey: Bool
    }

    init(_ table: String, in database: SQLiteDatabase) throws(FileScanRefusal) {
        do {
            let master = try database.prepare("SELECT rootpage, sql FROM sqlite_master WHERE type = 'table' AND name = ?1")
            defer { master.finalize() }
            try master.bind(table, at: 1)
            guard try master.step(), master.storageClass(at: 0) == .integer, master.int64(at: 0) > 0 else {
                throw FileScanRefusal("table \(table) has no root page")
            }
            rootPage = Int(master.int64(at: 0))
            guard !Self.hasNoRowid(master.string(at: 1) ?? "") else { throw FileScanRefusal("table \(table) has no rowid") }
            let info = try database.prepare("PRAGMA table_xinfo(\(SQLIdentifier.quoted(table)))")
            defer { info.finalize() }
            var columns: [Column] = []
            // cid, name, type, notnull, dflt_value, pk, hidden
            while try info.step() {
                guard info.int64(at: 6) == 0 else { throw FileScanRefusal("table \(table) has a generated or hidden column") }
                let defaultValue = info.string(at: 4)
                columns.append(Column(name: info.string(at: 1) ?? "", declaredType: info.string(at: 2) ?? "",
                                      hasDefault: defaultValue != nil && defaultValue?.uppercased() != "NULL", isKey: info.int64(at: 5) > 0))
            }
            self.columns = columns
        } catch let error as SQLiteError {
            throw FileScanRefusal(error.description)
        } catch let refusal as FileScanRefusal {
            throw refusal
        } catch {
            throw FileScanRefusal("\(error)")
        }
    }

    /// Where the columns `names` sit, in that order.
    func columns(_ names: [String]) throws(FileScanRefusal) -> RecordColumns {
        var fields: [Int] = [], realAffinity: [Bool] = [], missingIsNull: [Bool] = []
        for name in names {
            guard let field = columns.firstIndex(where: { $0.name.lowercased() == name.lowercased() }), !columns[field].isKey else {
                throw FileScanRefusal("column \(name) is not a stored column other than the key")
            }
            fields.append(field)
            realAffinity.append(Self.hasRealAffinity(columns[field].declaredType))
            missingIsNull.append(!columns[field].hasDefault)
        }
        return RecordColumns(fields: fields, realAffinity: realAffinity, missingIsNull: missingIsNull)
    }

    /// Whether a `CREATE TABLE` statement ends with the `WITHOUT ROWID` option (after the column
    /// list's closing parenthesis; spacing and case as SQLite allows).
    static func hasNoRowid(_ sql: String) -> Bool {
        guard let close = sql.lastIndex(of: ")") else { return false }
        let options = sql[close...].uppercased().filter { !$0.isWhitespace }
        return options.contains("WITHOUTROWID")
    }

    /// SQLite's rule for a column's affinity from its declared type (3.1 of its data types
    /// page), asked only whether it is REAL: not when the type names INT, CHAR, CLOB, TEXT or
    /// BLOB (or is empty) first; REAL when it names REAL, FLOA or DOUB.
    static func hasRealAffinity(_ declaredType: String) -> Bool {
        let type = declaredType.uppercased()
        if type.contains("INT") || type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { return false }
        if type.contains("BLOB") || type.isEmpty { return false }
        return type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB")
    }
}
