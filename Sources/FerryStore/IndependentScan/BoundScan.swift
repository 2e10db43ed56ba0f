import FerryModel

/// Values of a column that break an attribute's bounds (`AttributeBounds`), found row by row with
/// plain SQL: a number outside them, or text whose length in UTF-16 code units (as `NSString`
/// counts it, from the stored UTF-8) is. Values of another storage class are the storage-class
/// check's concern.
public struct BoundScan {
    let connection: ScanConnection

    public init(_ connection: ScanConnection) {
        self.connection = connection
    }

    /// The rows of `table` (those with one of `numbers`, or all) whose `column` breaks `bounds`.
    public func violations(of column: String, in table: String, numbers: [Int]?, bounds: AttributeBounds) throws(SQLiteError) -> OffendingRows {
        let value = ScanSQL.column("p", column)
        let filter = numbers.map { " AND p.Z_ENT IN (\(ScanSQL.numbers($0)))" } ?? ""
        let statement = try connection.database.prepare(
            "SELECT p.Z_PK, \(value) AS \(SQLIdentifier.quoted(column)) FROM \(SQLIdentifier.quoted(table)) p WHERE \(value) IS NOT NULL\(filter)")
        defer { statement.finalize() }
        var count: Int64 = 0
        var samples: [FailureSample] = []
        while try statement.step() {
            guard let measure = Self.measure(statement.value(at: 1), bounds: bounds), bounds.problem(measure) != nil else { continue }
            count += 1
            if samples.count < connection.sampleLimit {
                samples.append(FailureSample(primaryKey: statement.int64(at: 0), values: [column: SQLLiteral.text(statement, 1)]))
            }
        }
        return OffendingRows(count: count, samples: samples)
    }

    /// What `bounds` bound of a stored value: a number's value, or text's length; nil for a value
    /// of another storage class.
    private static func measure(_ value: SQLiteColumnValue, bounds: AttributeBounds) -> Double? {
        switch value.storageClass {
        case .integer where !bounds.boundsLength: Double(value.int64)
        case .real where !bounds.boundsLength: value.double
        case .text where bounds.boundsLength: Double(value.withText(utf16Length))
        default: nil
        }
    }

    /// The UTF-16 code units of UTF-8 `bytes`: one per character, two for one beyond the Basic
    /// Multilingual Plane (a four-byte sequence).
    static func utf16Length(_ bytes: UnsafeRawBufferPointer) -> Int {
        var units = 0
        for byte in bytes where byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
        return units
    }
}
