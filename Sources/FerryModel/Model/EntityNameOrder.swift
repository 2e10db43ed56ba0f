/// The order in which Core Data numbers entities (coredata-format.md §2): `caseInsensitiveCompare:`,
/// which folds ASCII `A`–`Z` to `a`–`z` and otherwise compares UTF-8 bytes. So `_` sorts after the
/// digits and before every letter (`Foo_Bar < FooBar`), digits are not numeric
/// (`Entity10 < Entity2`), and `SyncableSettingsMetadata < SyncFeatureEntity`, which byte order
/// reverses.
///
/// Numbering uses it, and the model writer, as Xcode writes entities and properties in this order;
/// the version-hash digest and checksum sort names in byte order.
public enum EntityNameOrder {
    /// Whether `a` comes before `b`. Names equal ignoring case (which a model may not have) fall
    /// back to byte order, so the order stays total.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var left = a.utf8.makeIterator(), right = b.utf8.makeIterator()
        while true {
            switch (left.next().map(folded), right.next().map(folded)) {
            case (nil, nil): return a.utf8.lexicographicallyPrecedes(b.utf8)
            case (nil, _): return true
            case (_, nil): return false
            case let (x?, y?) where x != y: return x < y
            default: continue
            }
        }
    }

    /// Whether two names differ only in the case of ASCII letters: Core Data cannot order them,
    /// and they would share one `Z<UPPER>` table.
    public static func equalIgnoringCase(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8) { folded($0) == folded($1) }
    }

    private static func folded(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
