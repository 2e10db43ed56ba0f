/// Where the values of one concrete entity's rows go in a reader's arrays, matched by name once
/// per entity so that no row hashes a name: for each of the cursor's attribute positions (and
/// to-one positions) the index of its slot, or nil for a value that is read, and so checked, but
/// not kept. Made by `StoredRecordCursor.slots(of:attributes:toOne:)`, used by
/// `StoredRecordCursor.read(_:values:references:)`.
public struct StoredRowSlots: Sendable {
    /// The concrete entity whose rows these slots fit.
    public let entity: String
    /// By attribute position: the index in `values`.
    let attributes: [Int?]
    /// By to-one position: the index in `references`.
    let toOne: [Int?]
}
