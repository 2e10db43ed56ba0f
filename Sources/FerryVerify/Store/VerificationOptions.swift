/// What `StoreVerifier.verify` does beyond the checks that always run.
public struct VerificationOptions: Sendable, Equatable {
    /// `PRAGMA integrity_check` rather than `quick_check`. Both read every page and check the
    /// b-trees and record formats; only the full check also looks up every row in every index
    /// (index entries match their table, UNIQUE indexes hold), which costs several times more on
    /// a large store. The values checks still find duplicates of uniqueness constraints.
    public var fullIntegrityCheck: Bool
    /// Record fingerprints of every entity over its `Z_PK` and all its stored attributes, and pair fingerprints
    /// of every relationship (keyed by `EdgeKey.preferred`).
    public var fingerprints: Bool
    /// Most sample rows kept per failure.
    public var sampleLimit: Int
    /// Whether the store's writer set every derived count from its relationship and created Core
    /// Data's triggers (import, migrate: `DerivedValues.derived`): a stale count or a missing
    /// trigger then fails the `values` section. Otherwise (a store of any origin) they are notes.
    public var derivedCountsAreComputed: Bool

    public init(fullIntegrityCheck: Bool = false, fingerprints: Bool = true, sampleLimit: Int = 5, derivedCountsAreComputed: Bool = false) {
        self.fullIntegrityCheck = fullIntegrityCheck
        self.fingerprints = fingerprints
        self.sampleLimit = max(0, sampleLimit)
        self.derivedCountsAreComputed = derivedCountsAreComputed
    }
}
