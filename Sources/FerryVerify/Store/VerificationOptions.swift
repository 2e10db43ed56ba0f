/// What `StoreVerifier.verify` does beyond the checks that always run.
public struct VerificationOptions: Sendable, Equatable {
    /// `PRAGMA integrity_check` (every index against its table) rather than `quick_check`.
    public var fullIntegrityCheck: Bool
    /// Record fingerprints of every entity over all its stored attributes, and pair fingerprints
    /// of every relationship (keyed by `EdgeKey.preferred`).
    public var fingerprints: Bool
    /// Most sample rows kept per failure.
    public var sampleLimit: Int

    public init(fullIntegrityCheck: Bool = true, fingerprints: Bool = true, sampleLimit: Int = 5) {
        self.fullIntegrityCheck = fullIntegrityCheck
        self.fingerprints = fingerprints
        self.sampleLimit = max(0, sampleLimit)
    }
}
