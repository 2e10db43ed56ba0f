/// A condition every row of some entities of a table must meet in one column: not NULL, or a
/// value that follows a `StorageRule`. Read two ways, as `StorageRule` is: against the columns of
/// a scan (`ValueScan.count`), and as an SQL predicate over alias `p` (`ValueScan.samples`).
public struct ColumnCondition: Sendable {
    public let column: String
    /// The `Z_ENT`s of the rows it applies to; nil for every row of the table.
    public let entityNumbers: [Int]?
    /// Nil: the value must not be NULL; otherwise the rule its stored value must follow.
    public let rule: StorageRule?

    public init(column: String, entityNumbers: [Int]?, rule: StorageRule?) {
        self.column = column
        self.entityNumbers = entityNumbers
        self.rule = rule
    }

    /// The rows breaking the condition, as an SQL predicate over alias `p`.
    var violation: String {
        let rows = entityNumbers.map { "p.Z_ENT IN (\(ScanSQL.numbers($0))) AND " } ?? ""
        let value = ScanSQL.column("p", column)
        return rows + (rule.map { $0.violationSQL(value) } ?? "\(value) IS NULL")
    }
}
