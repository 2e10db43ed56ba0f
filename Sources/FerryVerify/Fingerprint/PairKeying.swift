import FerryModel

/// How the ends of each pair are named in the pair fingerprints of a whole store
/// (`StoreVerifier.fingerprints(pairKeying:)`).
public enum PairKeying: Sendable {
    /// By `EdgeKey.preferred` (an entity's uniqueness constraint, else `Z_PK`): names that a
    /// migration, which numbers rows anew, keeps.
    case preferred
    /// By `Z_PK` at both ends: for stores that keep their keys (a restore compared with the
    /// store backed up), where a constraint's values, NULL on several objects, would name them
    /// alike and a pair moved between them would go unseen.
    case primaryKeys

    /// The key naming the ends of `entity`'s rows.
    func key(for entity: String, in model: ManagedObjectModel) -> EdgeKey {
        switch self {
        case .preferred: EdgeKey.preferred(for: entity, in: model)
        case .primaryKeys: .primaryKey
        }
    }
}
