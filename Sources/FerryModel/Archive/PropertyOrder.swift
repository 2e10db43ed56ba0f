/// Core Data's order of an entity's properties, which numbers them: the `NSReferenceID` of a
/// `_NSPropertyDescriptionProxy` is the property's index in the listing entity's order.
///
/// Properties fall into kinds, in this order: stored attributes, transient attributes, stored
/// to-one, stored to-many, stored ordered to-many, transient to-one, transient to-many, transient
/// ordered to-many relationships, fetched properties. Within a kind an entity lists what it inherits
/// first, in its parent's order, then its own properties by name. Checked against all 21 proxies of
/// the corpus: apptentive `ATDataModelv6` (five inherited attributes, 0–4) and plaso `netusage`
/// (`App` lists inherited `hasLiveUsage` as 4 ahead of its own to-many relationships, and inherited
/// transient to-one `hintLiveUsage` as 10 ahead of its own `hintCalendarUsage`).
enum PropertyOrder {
    /// The kinds, in Core Data's order.
    private enum Kind: Int, CaseIterable {
        case storedAttribute, transientAttribute
        case storedToOne, storedToMany, storedOrderedToMany
        case transientToOne, transientToMany, transientOrderedToMany
        case fetched

        init(_ relationship: Relationship) {
            switch (relationship.isTransient, relationship.isToMany, relationship.isOrdered) {
            case (false, false, _): self = .storedToOne
            case (false, true, false): self = .storedToMany
            case (false, true, true): self = .storedOrderedToMany
            case (true, false, _): self = .transientToOne
            case (true, true, false): self = .transientToMany
            case (true, true, true): self = .transientOrderedToMany
            }
        }
    }

    /// The names of every property an entity has, inherited ones included, in Core Data's order.
    static func names(of entity: String, in model: ManagedObjectModel) -> [String] {
        var kinds = Array(repeating: [String](), count: Kind.allCases.count)
        for owner in model.ancestry(of: entity).reversed() {
            var own: [(name: String, kind: Kind)] = owner.attributes.map { ($0.name, $0.isTransient ? .transientAttribute : .storedAttribute) }
            own += owner.relationships.map { ($0.name, Kind($0)) }
            own += owner.fetchedProperties.map { ($0.name, .fetched) }
            for property in own.sorted(by: { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }) {
                kinds[property.kind.rawValue].append(property.name)
            }
        }
        return kinds.flatMap { $0 }
    }
}
