import FerryModel

/// Values of a column that fail an attribute's validation (`AttributeValidation`: the model's
/// bounds and rules), found row by row with plain SQL: each stored value is taken as what its
/// storage class holds (an integer, a real, or a date's seconds for a Date; text) and validated.
/// Values of another storage class are the storage-class check's concern.
public struct ValidationScan {
    let connection: ScanConnection

    public init(_ connection: ScanConnection) {
        self.connection = connection
    }

    /// The rows of `table` (those with one of `numbers`, or all) whose `column`, holding values of
    /// `type`, fails `validation`, and why the first of them does.
    public func violations(of column: String, in table: String, numbers: [Int]?, type: AttributeType,
                           validation: AttributeValidation) throws(SQLiteError) -> (rows: OffendingRows, firstProblem: String?) {
        let value = ScanSQL.column("p", column)
        let filter = numbers.map { " AND p.Z_ENT IN (\(ScanSQL.numbers($0)))" } ?? ""
        let statement = try connection.database.prepare(
            "SELECT p.Z_PK, \(value) AS \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table)) p WHERE \(value) IS NOT NULL\(filter)")
        defer { statement.finalize() }
        var count: Int64 = 0
        var samples: [FailureSample] = []
        var firstProblem: String?
        while try statement.step() {
            guard let stored = Self.value(statement.value(at: 1), type: type), let problem = validation.problem(of: stored) else { continue }
            count += 1
            if firstProblem == nil { firstProblem = problem }
            if samples.count < connection.sampleLimit {
                samples.append(FailureSample(primaryKey: statement.int64(at: 0), values: [column: SQLLiteral.text(statement, 1)]))
            }
        }
        return (OffendingRows(count: count, samples: samples), firstProblem)
    }

    /// A stored value as what validation compares: nil for a storage class it does not take.
    private static func value(_ stored: SQLiteColumnValue, type: AttributeType) -> AttributeValue? {
        switch stored.storageClass {
        case .integer where type == .date: .date(Double(stored.int64))
        case .integer: .integer(stored.int64)
        case .real where type == .date: .date(stored.double)
        case .real: .double(stored.double)
        case .text where type == .string: .string(stored.withText { String(decoding: $0, as: UTF8.self) })
        default: nil
        }
    }
}
