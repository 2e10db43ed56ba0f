/// A read-only connection for the independent checks of a store: plain SQL over table and
/// column names taken from the layout, sharing no code with the record reader or the writer it
/// checks. The scans of this folder (`BookkeepingScan`, `ValueScan`, `PairScan`,
/// `EntityRowScan`, `PairKeyScan`, `PairIndexScan`) each ask one kind of question of it; what to check, and what
/// a finding means, is the verifier's.
///
/// Names are quoted all the same; values never reach SQL text except entity numbers, which are
/// integers. A connection is used by one thread.
public struct ScanConnection {
    let database: SQLiteDatabase
    /// Most sample rows kept per finding.
    public let sampleLimit: Int

    /// Opens the store at `path` read-only.
    public init(path: String, sampleLimit: Int) throws(SQLiteError) {
        self.init(database: try SQLiteDatabase(path: path, mode: .readOnly), sampleLimit: sampleLimit)
    }

    /// Asks on `database` itself: inside a write transaction, the checks see its changes.
    init(database: SQLiteDatabase, sampleLimit: Int) {
        self.database = database
        self.sampleLimit = sampleLimit
    }

    /// The file the connection reads.
    public var path: String { database.path }

    /// The same connection, keeping up to `sampleLimit` samples per finding.
    public func limited(to sampleLimit: Int) -> ScanConnection {
        ScanConnection(database: database, sampleLimit: sampleLimit)
    }

    /// Offending rows of a query, counted to the end, the first `sampleLimit` kept. When
    /// `keyed`, result column 0 is the row's `Z_PK`; every other column becomes a sample value
    /// named by its result column name.
    func offending(_ sql: String, keyed: Bool = true) throws(SQLiteError) -> OffendingRows {
        let statement = try database.prepare(sql)
        var count: Int64 = 0
        var samples: [FailureSample] = []
        while try statement.step() {
            count += 1
            guard samples.count < sampleLimit else { continue }
            samples.append(sample(statement, keyed: keyed))
        }
        return OffendingRows(count: count, samples: samples)
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

/// Pieces of the scans' SQL.
enum ScanSQL {
    /// `alias."name"`.
    static func column(_ alias: String, _ name: String) -> String { alias + "." + SQLIdentifier.quoted(name) }

    /// `1, 2, 3` (`NULL` for none, so `IN (NULL)` matches nothing).
    static func numbers(_ numbers: [Int]) -> String {
        numbers.isEmpty ? "NULL" : numbers.map(String.init).joined(separator: ", ")
    }
}
