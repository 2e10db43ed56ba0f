/// A record's key in its source as the key map (`StagedLinks`) holds it: the key itself, an
/// integer or text `StoreValue`, and the scope it is unique in within its source.
///
/// A store's `Z_PK` is unique only among the rows of its table, one entity hierarchy: its scope
/// is that hierarchy's root, by the source store's number for it, so that the rows of two source
/// tables never meet when a later version puts both entities in one hierarchy (one destination
/// table). A key unique across its whole source (a file's, a nested or made record's) has scope 0.
public struct SourceKey: Sendable, Hashable {
    public let value: StoreValue
    public let scope: Int64

    public init(_ value: StoreValue, scope: Int64 = 0) {
        self.value = value
        self.scope = scope
    }
}
