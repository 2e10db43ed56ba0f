/// Which records' fingerprint terms include their `Z_PK`: those whose key is at most `through`.
///
/// A term over values alone says that some object holds them, not which: two objects that
/// swapped their values leave an entity's fingerprint as it was, while pairs named by `Z_PK`
/// still join the same keys. Where an object's key is comparable on both sides, its term is
/// taken over the key and the values (`CanonicalEncoding.appendRecordStart`), so the values must
/// be on the same object. That holds within one store's lineage (a store and its receipt, a store
/// and the same sources migrated again: the mapping gives the same keys; `all`), and, for a
/// migration, for the objects of the store whose identity the new store keeps: they keep their
/// `Z_PK`, the writer gives no other object a key up to that store's largest, so a row at or
/// below it is that store's object with its own key (`through` that largest key). Elsewhere
/// (records of files or of other stores, given new keys) there is no key to compare (`none`).
public struct RecordKeying: Sendable, Equatable {
    /// The largest key whose records are keyed (0: none is).
    public let through: Int64

    public init(through: Int64) {
        self.through = max(0, through)
    }

    /// No record is keyed: its term is over its values alone.
    public static let none = RecordKeying(through: 0)
    /// Every record is keyed.
    public static let all = RecordKeying(through: .max)

    /// The key to take the term of the record whose `Z_PK` is `primaryKey` over, or nil when it is
    /// taken over the values alone.
    public func key(for primaryKey: Int64?) -> Int64? {
        guard let primaryKey, primaryKey >= 1, primaryKey <= through else { return nil }
        return primaryKey
    }
}
