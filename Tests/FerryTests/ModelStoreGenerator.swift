import FerryMigration
import FerryModel
import FerryStore
import Foundation

/// Writes a store of one model version from generated records, for model versions the corpus has
/// no store of: every concrete entity gets `count` records with a value for every stored
/// attribute (by type, distinct per record), and every relationship is linked from one side of
/// its inverse pair, the side a store reader reads it from (the to-one side, or the ordered
/// to-many side, or the smaller entity and name), each record to records of its destination's
/// concrete entities, one-to-ones and one-to-manys never claiming a record twice.
enum ModelStoreGenerator {
    /// What was written.
    struct Written {
        /// Records per entity.
        var records: [String: Int] = [:]
        /// Links per `Entity.relationship`, as a store holds them: from the carrying side, and
        /// from both sides of a one-to-one (each row holds its key).
        var links: [String: Int] = [:]
    }

    static func write(_ model: ManagedObjectModel, count: Int, to path: String) throws -> Written {
        let hashes = VersionHasher.hashes(of: model)
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: hashes.entityHashes, versionIdentifiers: [""],
                                                   hashesDigest: hashes.digest, checksum: hashes.checksum)
        let graph = StoreGraphWriter(writer: store, model: model)
        let concrete = model.entities.filter { !$0.isAbstract }.map(\.name)
        func key(_ entity: String, _ index: Int) -> Int64 { Int64((concrete.firstIndex(of: entity) ?? 0) * 100_000 + index + 1) }
        /// The keys of every record a relationship to `entity` may reach.
        func reachable(_ entity: String) -> [Int64] {
            model.hierarchy(below: entity).filter { !$0.isAbstract }.flatMap { target in (0..<count).map { key(target.name, $0) } }
        }
        var claimed: [String: Int] = [:]
        var written = Written()
        for entity in concrete {
            guard let schema = RecordSchema(model: model, entityName: entity) else { continue }
            for index in 0..<count {
                let serial = (concrete.firstIndex(of: entity) ?? 0) * count + index
                var links: [RecordLink] = []
                for relationship in model.allRelationships(of: entity) where !relationship.isTransient && carries(relationship, of: entity, model) {
                    let targets = reachable(relationship.destinationEntity)
                    guard !targets.isEmpty else { continue }
                    let name = "\(model.declaringEntity(ofProperty: relationship.name, in: entity)?.name ?? entity).\(relationship.name)"
                    let exclusive = model.inverse(of: relationship).map { !$0.isToMany } ?? false
                    var chosen: [Int64] = []
                    for _ in 0..<(relationship.isToMany ? 2 : 1) {
                        let next = claimed[name, default: 0]
                        if exclusive, next >= targets.count { break }
                        chosen.append(targets[next % targets.count])
                        claimed[name] = next + 1
                    }
                    chosen = Array(Set(chosen)).sorted()
                    guard !chosen.isEmpty else { continue }
                    links.append(RecordLink(relationship: relationship.name, targets: chosen.map { .key(.integer($0)) }))
                    written.links[name, default: 0] += chosen.count
                    if let inverse = model.inverse(of: relationship), !relationship.isToMany, !inverse.isToMany {
                        written.links["\(relationship.destinationEntity).\(inverse.name)", default: 0] += chosen.count
                    }
                }
                let record = Record(values: schema.attributes.map { value(for: $0, serial: serial) },
                                    location: SourceLocation(file: "generated \(entity)", line: index + 1),
                                    key: .integer(key(entity, index)), links: links)
                _ = try graph.write(record, schema: schema, namespace: 0)
                written.records[entity, default: 0] += 1
            }
        }
        _ = try graph.resolveLinks()
        try store.finish()
        return written
    }

    /// Whether records of `entity` carry the links of `relationship` (see the type).
    private static func carries(_ relationship: Relationship, of entity: String, _ model: ManagedObjectModel) -> Bool {
        guard let inverse = model.inverse(of: relationship) else { return true }
        if relationship.isToMany != inverse.isToMany {
            return relationship.isToMany ? relationship.isOrdered : !inverse.isOrdered
        }
        if relationship.isOrdered != inverse.isOrdered { return relationship.isOrdered }
        let here = model.declaringEntity(ofProperty: relationship.name, in: entity)?.name ?? entity
        let there = model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity)?.name ?? relationship.destinationEntity
        return (here, relationship.name) <= (there, inverse.name)
    }

    /// A value of the attribute's type, distinct for every `serial`.
    private static func value(for attribute: Attribute, serial: Int) -> AttributeValue {
        switch attribute.type {
        case .integer16: .integer(Int64(serial % 30_000))
        case .integer32: .integer(Int64(serial) * 7)
        case .integer64: .integer(Int64(serial) * 1_000_003)
        case .decimal: .decimal("\(serial).25")
        case .double: .double(Double(serial) + 0.5)
        case .float: .double(Double(serial) + 0.25)
        case .string: .string("\(attribute.name) \(serial)")
        case .boolean: .bool(serial % 2 == 0)
        case .date: .date(500_000_000 + Double(serial) * 3_600)
        case .binary, .transformable: .binary(Array("\(attribute.name) \(serial)".utf8))
        case .uuid: UUIDBytes((0..<16).map { UInt8(truncatingIfNeeded: serial >> ($0 % 4 * 8)) ^ UInt8($0) }).map(AttributeValue.uuid) ?? .null
        case .uri: .uri("https://example.com/\(attribute.name)/\(serial)")
        case .undefined, .objectID, .composite: .null
        }
    }
}
