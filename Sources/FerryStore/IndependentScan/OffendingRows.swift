/// The rows a scan found breaking a condition: how many, and the first few.
public struct OffendingRows: Sendable, Equatable {
    public let count: Int64
    public let samples: [FailureSample]
}

/// One offending row: its `Z_PK` (when it has one) and the values that show the problem, as
/// SQL literals (`'text'`, `12`, `X'0A0B'`, `NULL`).
public struct FailureSample: Sendable, Equatable, Codable {
    public var primaryKey: Int64?
    public var values: [String: String]

    public init(primaryKey: Int64?, values: [String: String]) {
        self.primaryKey = primaryKey
        self.values = values
    }
}
