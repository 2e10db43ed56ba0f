/// How a writer leaves the values of the derived attributes Core Data's triggers keep
/// (`StoreLayout.derivedAttributes`) once its rows are in. Either way the store then gets the
/// triggers, so it keeps the values up to date from there on, as a store Core Data made does.
public enum DerivedValues: Sendable {
    /// Set from their derivation, as Core Data computes them when it saves: whatever a record
    /// gave for one is replaced (import, migrate).
    case derived
    /// Kept as written: a restore, whose store is a copy of the one backed up.
    case asWritten
}
