import FerryStore

/// The refusal of a to-one of the version written that the run's links give one object several
/// destinations of, where the version they were read in allowed several (a to-many the version
/// change made a to-one, or no inverse to limit them): no rule can choose one, so the run stops,
/// naming where, whichever side the pairs were read from.
enum ToOneGivenSeveral {
    /// A record that lists several destinations of its own to-one (`count`, as said); `inverse`:
    /// the to-one's inverse, entity and name, when it has one.
    static func listed(entity: String, relationship: String, inverse: (entity: String, relationship: String)?, origin: LinkOrigin,
                       count: String) -> GraphWriteError {
        refusal(entity, relationship, inverse: inverse, given: "the record at \(origin.location) lists \(count)")
    }

    /// Objects that the pairs of the to-one's inverse give several destinations
    /// (`LinkResolution`'s narrowed sides).
    static func namedBySeveral(_ claims: NarrowedToOneClaims) -> GraphWriteError {
        let locations = claims.origins.map { "\($0.location)" }
        let example = if claims.originsAreObject, let own = locations.first {
            "the record at \(own) is one"
        } else if locations.count > 1 {
            "the records at \(locations[0]) and \(locations[1]) name one"
        } else {
            "the record at \(locations.first ?? "?") names one"
        }
        let objects = claims.objects == 1 ? "1 \(claims.entity) is" : "\(claims.objects) \(claims.entity) objects are"
        return refusal(claims.entity, claims.relationship, inverse: (claims.inverseEntity, claims.inverse),
                       given: "\(objects) given several through its inverse \(claims.inverseEntity).\(claims.inverse) (\(example))")
    }

    /// The refusal, with the written rules that drop the pairs: both sides' when the to-one has an
    /// inverse, as the store's pairs are read from the other side when one side is dropped.
    private static func refusal(_ entity: String, _ relationship: String, inverse: (entity: String, relationship: String)?,
                                given: String) -> GraphWriteError {
        let drop = inverse.map { "its pairs with written rules `\(relationship) <- nil` for \(entity) and `\($0.relationship) <- nil` for \($0.entity)" }
            ?? "its links with a written rule `\(relationship) <- nil`"
        return .unsupportedLink(entity: entity, relationship: relationship, reason: "a to-one relationship takes one destination in the "
            + "version written, but \(given) (was it a to-many?), and no rule chooses one: keep the relationship to-many, or drop \(drop)")
    }
}
