import FerryModel

/// A required to-one that a record may leave empty when it is written, for links of the run to
/// fill from the other side (a folder listing its notes, a task naming its detail):
/// `StoreGraphWriter` notes the rows its records left it empty in, and once the kinds that fill
/// it are resolved, those still without a destination are rejected (`UnfilledRequiredRows`).
struct RequiredToOne {
    /// The number its rows are noted under (`StagedLinks.noteUnfilled`).
    let need: Int
    /// The entity that declares it.
    let entity: String
    let relationship: Relationship

    /// Why a record of a row still without a destination is rejected; `followsAnother`: the
    /// row's destination was such a row, rejected.
    func rejectReason(followsAnother: Bool) -> String {
        followsAnother
            ? "required relationship '\(relationship.name)' names a record that was rejected, as no record of the run gave it one"
            : "required relationship '\(relationship.name)' is empty: no record of the run gives it"
    }
}
