import FerryStore

/// Runs the verifier's SQL on one read-only connection. Table and column names come from the
/// model's `StoreLayout` (plain identifiers by construction) and are quoted all the same; values
/// never reach SQL text except entity numbers, which are integers.
struct StoreQueries {
    let database: SQLiteDatabase
    /// Most sample rows kept per failure.
    let sampleLimit: Int

    /// Offending rows of a query, counted to the end, the first `sampleLimit` kept. When
    /// `keyed`, result column 0 is the row's `Z_PK`; every other column becomes a sample value
    /// named by its result column name.
    func offending(_ sql: String, keyed: Bool = true) throws(SQLiteError) -> (count: Int64, samples: [FailureSample]) {
        let statement = try database.prepare(sql)
        var count: Int64 = 0
        var samples: [FailureSample] = []
        while try statement.step() {
            count += 1
            guard samples.count < sampleLimit else { continue }
            samples.append(sample(statement, keyed: keyed))
        }
        return (count, samples)
    }

    /// The integers of the first row of a query (NULL as 0); empty when there is no row.
    func integers(_ sql: String) throws(SQLiteError) -> [Int64] {
        let statement = try database.prepare(sql)
        guard try statement.step() else { return [] }
        return (0..<statement.columnCount).map { statement.int64(at: $0) }
    }

    /// The first column of every row as text.
    func texts(_ sql: String) throws(SQLiteError) -> [String] {
        let statement = try database.prepare(sql)
        var result: [String] = []
        while try statement.step() { result.append(statement.string(at: 0) ?? "NULL") }
        return result
    }

    private func sample(_ statement: SQLiteStatement, keyed: Bool) -> FailureSample {
        var values: [String: String] = [:]
        for column in Int32(keyed ? 1 : 0)..<statement.columnCount {
            values[statement.columnName(at: column) ?? "\(column)"] = SQLLiteral.text(statement, column)
        }
        return FailureSample(primaryKey: keyed && !statement.isNull(at: 0) ? statement.int64(at: 0) : nil, values: values)
    }
}

/// SQL names and lists for generated statements.
enum SQL {
    /// `"name"`, embedded quotes doubled.
    static func quoted(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// `alias."name"`.
    static func column(_ alias: String, _ name: String) -> String { alias + "." + quoted(name) }

    /// `1, 2, 3` (`NULL` for none, so `IN (NULL)` matches nothing).
    static func numbers(_ numbers: [Int]) -> String {
        numbers.isEmpty ? "NULL" : numbers.map(String.init).joined(separator: ", ")
    }
}

/// A result value as an SQL literal, clipped for reports: `12`, `1.5`, `'text'`, `X'0A0B'`, `NULL`.
enum SQLLiteral {
    private static let maxBytes = 48

    static func text(_ statement: SQLiteStatement, _ column: Int32) -> String {
        switch statement.storageClass(at: column) {
        case .null: return "NULL"
        case .integer: return String(statement.int64(at: column))
        case .real: return String(statement.double(at: column))
        case .text:
            return statement.withText(at: column) { bytes in
                let clipped = String(decoding: bytes.prefix(maxBytes), as: UTF8.self).replacingQuotes()
                return "'" + clipped + "'" + (bytes.count > maxBytes ? "…" : "")
            }
        default:
            return statement.withBlob(at: column) { bytes in
                let digits = Array("0123456789ABCDEF".utf8)
                var hex: [UInt8] = []
                for byte in bytes.prefix(maxBytes / 2) {
                    hex.append(digits[Int(byte >> 4)])
                    hex.append(digits[Int(byte & 0xF)])
                }
                return "X'" + String(decoding: hex, as: UTF8.self) + "'" + (bytes.count > maxBytes / 2 ? "…" : "")
            }
        }
    }
}

private extension String {
    func replacingQuotes() -> String {
        split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''")
    }
}
