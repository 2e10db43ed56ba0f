/// A staged link that found no destination (`LinkResolution.forEachUnresolved`).
public struct UnresolvedLink: Sendable, Equatable {
    /// The value or key it looked for, as text (`NULL` for none).
    public let label: String
    /// Where it was given.
    public let origin: LinkOrigin
    /// Whether it found its destination, but that row was removed because a required link of
    /// its own found nothing (`LinkResolution.removeRejectedSources`).
    public let destinationRejected: Bool
    /// Whether its own record is rejected for it: the relationship is a required to-one.
    public let rejectsRecord: Bool
}
