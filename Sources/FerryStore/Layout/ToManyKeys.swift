import FerryModel

/// The to-many relationships of a model that have no inverse, and the key column each keeps on
/// its destinations' rows. Core Data has no join table for them: each destination row holds the
/// `Z_PK` of its source, as it would for a to-one inverse. The rule, from the two CartKit stores
/// (framework 1523; a Core Data model and a SwiftData one):
///
/// - Name: `Z`, the `Z_ENT` of the entity declaring the relationship, the uppercased relationship
///   name, with no `_`: `CDCartItem.modifiers` (`Z_ENT` 2) is `Z2MODIFIERS` on
///   `ZCDCARTITEMMODIFIER`, `CartModel.items` (3) is `Z3ITEMS` on `ZCARTITEMMODEL`,
///   `CartItemModel.modifiers` (1) is `Z1MODIFIERS`. The number is the declaring entity's own,
///   not its root's, as in join-table names (apptentive's `Z_6DISPLAYTYPES`) [?: no store has
///   such a relationship declared by a sub-entity]. A taken name gets a numeric suffix, as every
///   column name does.
/// - Place: the table of the destination's root (every table holds its whole hierarchy), in the
///   integer group, right after the destination entity's own to-one keys and their `Z<n>_` and
///   `Z_FOK_` columns: `ZITEM, Z2MODIFIERS`; after the integer attributes when there is no
///   to-one (`ZAVAILABLESTOCK, ZQUANTITY, Z3ITEMS`). Rows of the destination and of its
///   sub-entities use it. For a destination with sub-entities, at the destination's place in the
///   pre-order of the hierarchy; several keys into one entity by the declaring entity's `Z_ENT`,
///   then relationship name [?: no store shows either].
/// - Index: `<TABLE>_<COLUMN>_INDEX` over the key alone, as for a to-one key
///   (`ZCDCARTITEMMODIFIER_Z2MODIFIERS_INDEX`), in column order among the foreign-key indexes.
/// - No `Z<n>_` column and no `Z_FOK_` column appear in either store: neither declaring entity
///   has sub-entities, and neither relationship is ordered. Both cases are refused rather than
///   guessed (`StoreLayoutError.orderedToManyWithoutInverse`,
///   `.toManyWithoutInverseFromHierarchy`): a store Core Data reads through other columns
///   would lose the links.
struct ToManyKeys {
    /// A to-many relationship without an inverse, with the entity declaring it.
    struct Source {
        let owner: Entity
        let relationship: Relationship
    }

    private let entityNumbers: [String: Int]
    /// The relationships keyed on the rows of each destination entity, in column order.
    private let byDestination: [String: [Source]]

    /// Finds every stored to-many relationship without an inverse, refusing those whose storage
    /// no store shows, and those naming an inverse the model does not have.
    init(model: ManagedObjectModel, entityNumbers: [String: Int]) throws(StoreLayoutError) {
        var found: [String: [Source]] = [:]
        for owner in model.entities {
            for relationship in owner.relationships where relationship.isToMany && !relationship.isTransient {
                guard model.inverse(of: relationship) == nil else { continue }
                if let inverse = relationship.inverseName {
                    throw .unknownInverse(entity: owner.name, relationship: relationship.name, inverse: inverse)
                }
                guard entityNumbers[relationship.destinationEntity] != nil else {
                    throw .unknownDestination(entity: owner.name, relationship: relationship.name,
                                              destination: relationship.destinationEntity)
                }
                if relationship.isOrdered {
                    throw .orderedToManyWithoutInverse(entity: owner.name, relationship: relationship.name)
                }
                if !model.subentities(of: owner.name).isEmpty {
                    throw .toManyWithoutInverseFromHierarchy(entity: owner.name, relationship: relationship.name)
                }
                found[relationship.destinationEntity, default: []].append(Source(owner: owner, relationship: relationship))
            }
        }
        byDestination = found.mapValues { sources in
            sources.sorted { first, second in
                let firstNumber = entityNumbers[first.owner.name] ?? .max, secondNumber = entityNumbers[second.owner.name] ?? .max
                if firstNumber != secondNumber { return firstNumber < secondNumber }
                return first.relationship.name.utf8.lexicographicallyPrecedes(second.relationship.name.utf8)
            }
        }
        self.entityNumbers = entityNumbers
    }

    /// The key columns on rows of `destination`, named through `namer`.
    func columns(into destination: Entity, namer: inout ColumnNamer) throws(StoreLayoutError) -> [ColumnLayout] {
        var columns: [ColumnLayout] = []
        for source in byDestination[destination.name] ?? [] {
            let owner = source.owner.name, name = source.relationship.name
            guard let number = entityNumbers[owner] else { continue }
            let base = "Z\(number)" + (try SQLName.checked(name, entity: owner)).uppercased()
            columns.append(ColumnLayout(name: namer.claim(base), declaredType: "INTEGER",
                                        role: .toManyKey(entity: owner, relationship: name, destination: destination.name)))
        }
        return columns
    }
}
