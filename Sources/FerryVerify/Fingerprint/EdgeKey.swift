import FerryModel

/// How the ends of a relationship pair are named in an edge fingerprint: by values that survive
/// a migration (a unique attribute such as `taskID`), or by `Z_PK` (only meaningful within one
/// store).
public enum EdgeKey: Sendable, Equatable, Hashable {
    case primaryKey
    /// Attribute values, in this order.
    case attributes([String])

    /// An entity's first uniqueness constraint made only of attributes, else `Z_PK`.
    public static func preferred(for entity: String, in model: ManagedObjectModel) -> EdgeKey {
        let attributes = Set(model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name))
        for owner in model.ancestry(of: entity) {
            if let constraint = owner.uniquenessConstraints.first(where: { !$0.isEmpty && $0.allSatisfy(attributes.contains) }) {
                return .attributes(constraint)
            }
        }
        return .primaryKey
    }

    /// `Z_PK` or the attribute names joined by `+`.
    public var label: String {
        switch self {
        case .primaryKey: "Z_PK"
        case .attributes(let names): names.joined(separator: "+")
        }
    }
}
