/// What the version a record was read in says of the other sides of its relationships, by the
/// names the version written gives them: which one-to-ones its source gives both sides of, and
/// which relationships had an inverse there that let several records name one destination.
public struct LinkSides: Sendable, Equatable {
    /// The one-to-ones whose links fill their own column only: the source keeps each side in a
    /// column of its own and gives both (`RecordCursor.keepsOneToOneSides`), so a side it left
    /// empty stays empty (`LinkKind.mirrorsOneToOne`).
    public var kept: Set<String>
    /// The relationships whose inverse, a to-one in the version written, was a to-many or none
    /// in the version read (`MigrationChain.inverseBecomesToOne`, `LinkKind.inverseWasToMany`).
    public var inverseWasToMany: Set<String>

    public init(kept: Set<String> = [], inverseWasToMany: Set<String> = []) {
        self.kept = kept
        self.inverseWasToMany = inverseWasToMany
    }
}
