import FerryModel

/// What resolving the links of one relationship found.
public struct LinkReport: Sendable, Equatable, Codable {
    /// `Entity.relationship`.
    public var relationship: String
    /// How the destinations were found: by source key, or by a destination attribute.
    public var matchedBy: String
    public var links = 0
    public var resolved = 0
    /// Destinations that did not exist and were created (find-or-create by an attribute).
    public var created = 0
    /// Links whose destination was not found, with the first few, each located where its record
    /// was read (`Reject.summary`).
    public var unresolved = 0
    public var unresolvedSamples: [String] = []
    /// Links of an optional relationship to records left out on purpose (filtered by a
    /// mapping, or of an entity the chain does not carry): dropped with them, not among `links`.
    public var droppedWithDestinations = 0
    /// Records rejected because their links found too few destinations: none for a required
    /// to-one, fewer than the minimum count for a to-many (written, then removed).
    public var rejectedRecords = 0
    /// Why those records could not be kept (`rejectionCause(of:)`); nil when none were rejected.
    public var rejectedBecause: String?
    /// Records those records carried (nested objects written for them that no other record
    /// merged into), rejected with them.
    public var carriedRecordsRemoved = 0
    /// Links whose value matched several destinations (the one with the lowest `Z_PK` is used).
    public var ambiguous = 0
    /// Destinations claimed by more than one source where each destination's row holds its one
    /// source (one-to-many, to-many without an inverse): the last one wins.
    public var conflicts = 0
    /// Pairs given more than once (kept once; an ordered list keeps the first place).
    public var duplicatePairs = 0
    /// Pairs of rows the store held that a record merged into them under keep-newest did not
    /// give, kept because their destination's inverse (`keptBecause`) is a required to-one
    /// (`ReplacedStoredPairs`): the row holds a pair its record left out.
    public var keptFromStore = 0
    /// The required to-one that kept those pairs; nil when none were kept.
    public var keptBecause: String?

    public init(relationship: String, matchedBy: String) {
        self.relationship = relationship
        self.matchedBy = matchedBy
    }

    /// The links of `reports` that found nothing: each is a relationship missing from the record
    /// that gave it, so a run with any exits 1, as with a rejected record.
    public static func unresolved(in reports: [LinkReport]) -> Int {
        reports.reduce(0) { $0 + $1.unresolved }
    }

    /// The links of `reports` not kept as their records gave them: those that found nothing,
    /// those whose destination another record claimed last (`conflicts`: the pair a record gave
    /// is missing from it), and those whose value matched several destinations (`ambiguous`: the
    /// one with the lowest `Z_PK` was taken, which the record did not single out), and the stored
    /// pairs a merged record left out but a required inverse kept (`keptFromStore`). A run with
    /// any exits 1, as with a rejected record.
    public static func notKept(in reports: [LinkReport]) -> Int {
        reports.reduce(0) { $0 + $1.unresolved + $1.conflicts + $1.ambiguous + $1.keptFromStore }
    }

    /// Why a record whose links of `relationship` found too few destinations cannot be kept.
    static func rejectionCause(of relationship: Relationship) -> String {
        guard relationship.isToMany else { return "the relationship is required" }
        return relationship.minCount == 1 ? "the relationship needs a destination" : "the relationship needs at least \(relationship.minCount) destinations"
    }
}
