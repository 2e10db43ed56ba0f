/// Records written, then rejected when their links were resolved: a required to-one
/// relationship found no destination, so Core Data would refuse the object
/// (`StoreGraphWriter.resolveLinks`). The pipeline moves them from written (or merged) to
/// rejected in the ledger they were counted in; records such a record carried go with its reject
/// (`CarriedRecordsChange`).
public struct RejectedRecords: Sendable, Equatable {
    /// The entity their rows were written as.
    public let entity: String
    /// The ledger the records were counted in (`StoreGraphWriter.write`'s `ledger`).
    public let ledger: Int
    /// Whether they were merged into the row (a duplicate of a record written before), not written.
    public let merged: Bool
    public let count: Int

    /// The number a record's links are staged under: its ledger and whether it was merged.
    static func account(ledger: Int, merged: Bool) -> Int {
        ledger << 1 | (merged ? 1 : 0)
    }

    init(entity: String, account: Int, count: Int) {
        self.entity = entity
        ledger = account >> 1
        merged = account & 1 == 1
        self.count = count
    }
}
