import FerryMigration
import FerryModel
import FerryVerify

/// The attributes a route carries unchanged from a source record to the store: copied by every
/// step (`copy` rules, never converted or computed) into an optional attribute (so a missing
/// value is never replaced by a default) that is not derived (the store computes those: a
/// counter the app kept becomes the count of its relationship). Their values in the store must be the source's, which
/// is what `CarriedValueCheck` proves without running any mapping code.
struct CarriedAttributes: Equatable {
    /// Final attribute names, in canonical encoding order.
    let names: [String]
    /// For each name, the index of its value in a source record of the route's schema.
    let sourceIndexes: [Int]

    /// The carried attributes of records of `schema` taken by `route` (empty when it ends
    /// nowhere), those of `within` only when given.
    init(route: MigrationChain.Route, chain: MigrationChain, schema: RecordSchema, within: Set<String>? = nil) {
        var current: [String: Int] = [:]
        for (index, attribute) in schema.attributes.enumerated() { current[attribute.name] = index }
        for (step, mapping) in route.mappings.enumerated() {
            let destination = chain.versions[route.stops[step + 1]]
            let attributes = Dictionary(destination.allAttributes(of: mapping.destination).map { ($0.name, $0) },
                                        uniquingKeysWith: { first, _ in first })
            var next: [String: Int] = [:]
            for rule in mapping.attributes {
                guard case .copy(let source) = rule.rule, let index = current[source],
                      let attribute = attributes[rule.destination], attribute.isOptional, !attribute.isTransient, !attribute.isDerived,
                      attribute.type.sqlColumnType != nil else { continue }
                next[rule.destination] = index
            }
            current = next
        }
        if route.finalEntity == nil { current = [:] }
        if let within { current = current.filter { within.contains($0.key) } }
        names = CanonicalEncoding.ordered(Array(current.keys))
        sourceIndexes = names.compactMap { current[$0] }
    }

    /// Appends the canonical encoding of a source record's carried values (as `CanonicalEncoding`
    /// encodes a stored record over `names`), after `key` when the record is keyed (`RecordKeying`).
    func encode(_ values: [AttributeValue], key: Int64?, to bytes: inout [UInt8]) {
        CanonicalEncoding.append(values: values, at: sourceIndexes, key: key, to: &bytes)
    }
}
