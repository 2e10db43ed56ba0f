/// A staged link that found no destination, or whose source key named no record of its source
/// (`LinkResolution.forEachUnresolved`).
public struct UnresolvedLink: Sendable, Equatable {
    /// The value or key it looked for, as text (`NULL` for none).
    public let label: String
    /// Where it was given.
    public let origin: LinkOrigin
    /// Whether its source key named no record of its source (`StagedLinks.Source.missing`):
    /// `label` is that key, and `origin` where the source keeps it.
    public let sourceIsMissing: Bool
    /// Whether it found its destination, but that row was removed because a required link of
    /// its own found nothing (`LinkResolution.removeRejectedSources`).
    public let destinationRejected: Bool
    /// Whether its own record is rejected for it: the relationship is a required to-one.
    public let rejectsRecord: Bool
    /// Whether the record that carried its record is rejected for it (its record is a nested
    /// object, and the relationship a required to-one).
    public let rejectsCarrier: Bool
}
