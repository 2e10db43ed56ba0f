/// A record removed with the row it merged into, though its own links of the kind did not fail:
/// another record of the row gave the link that found nothing (`LinkResolution.forEachRemovedCopy`).
public struct RemovedCopy: Sendable, Equatable {
    /// Where the removed record was read.
    public let origin: LinkOrigin
    /// Where the record whose link found nothing was read.
    public let failedAt: LinkOrigin
    /// The value or key that link looked for, as text (`NULL` for none).
    public let label: String
}
