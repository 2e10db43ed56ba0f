import FerryModel
import FerryStore

/// An entity's relationship, the destination attribute its targets are matched by, whether its
/// links fill a one-to-one's inverse too (`LinkKind.mirrorsOneToOne`), and whether they were read
/// where that inverse was a to-many (`LinkKind.inverseWasToMany`).
private struct KindKey: Hashable {
    let entity: String
    let relationship: String
    let matchAttribute: String?
    var mirrorsOneToOne = true
    var inverseWasToMany = false
}

/// Stages the links of written records in the store's scratch tables (`StagedLinks`, FerryStore)
/// until they are resolved, each under its kind (`LinkKind`): the relationship of an entity and
/// how its destinations are found, checked against the model once per kind.
final class LinkStaging {
    let tables: StagedLinks
    private(set) var kinds: [LinkKind] = []
    private var kindIDs: [KindKey: Int] = [:]
    /// Whether a relationship of an entity is to-many, found once per pair (a flag, so that the
    /// check per link copies no `Relationship`).
    private var toMany: [KindKey: Bool] = [:]
    private let model: ManagedObjectModel

    init(writer: CoreDataStoreWriter, model: ManagedObjectModel) throws(GraphWriteError) {
        self.model = model
        tables = try GraphWriteError.wrap { () throws(StoreWriterError) in try StagedLinks(writer: writer) }
    }

    /// Remembers that `key` in source `namespace` is the row `pk` of the root entity numbered `root`.
    func mapKey(_ key: RecordKey, namespace: Int, root: Int64, to pk: Int64) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in try tables.mapKey(key.sourceKey, namespace: namespace, root: root, to: pk) }
    }

    /// Marks a record left out on purpose (`StagedLinks.markLeftOut`).
    func markLeftOut(_ key: RecordKey, namespace: Int) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in try tables.markLeftOut(key.sourceKey, namespace: namespace) }
    }

    /// Maps a merged copy's key away (`StagedLinks.mapKeyAway`).
    func mapKeyAway(_ key: RecordKey, namespace: Int, root: Int64, row: Int64) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in try tables.mapKeyAway(key.sourceKey, namespace: namespace, root: root, row: row) }
    }

    /// Maps away the keys of a row a later record, given `key`, takes (`StagedLinks.mapKeysAway`).
    func mapKeysAway(ofRow row: Int64, root: Int64, except key: RecordKey, namespace: Int) throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in
            try tables.mapKeysAway(ofRow: row, root: root, except: key.sourceKey, namespace: namespace)
        }
    }

    /// The kinds staged so far for `relationships` of `entity`.
    func kindIDs(of entity: String, relationships: Set<String>) -> [Int] {
        kinds.filter { $0.entity == entity && relationships.contains($0.relationship.name) }.map(\.id)
    }

    /// Writes the key runs still being extended; call before resolving.
    func finishKeys() throws(GraphWriteError) {
        try GraphWriteError.wrap { () throws(StoreWriterError) in try tables.finishKeys() }
    }

    /// Stages the targets of one link of the record `pk`, given at `origin`; `mirrorsOneToOne`:
    /// a one-to-one's link fills its inverse's column too (`LinkKind.mirrorsOneToOne`);
    /// `inverseWasToMany`: the record was read where the relationship's inverse was a to-many or
    /// none (`LinkKind.inverseWasToMany`); `account`: the record's `RejectedRecords.account`
    /// (nil: the record is not rejected when a required link finds nothing).
    func stage(_ link: RecordLink, from entity: String, primaryKey pk: Int64, namespace: Int, origin: LinkOrigin,
               mirrorsOneToOne: Bool = true, inverseWasToMany: Bool = false, account: Int?) throws(GraphWriteError) {
        if try !isToMany(link.relationship, of: entity), link.targets.count > 1 {
            throw try severalForToOne(entity, link.relationship, origin: origin, count: "\(link.targets.count)")
        }
        for (position, target) in link.targets.enumerated() {
            let kind = try kindID(entity: entity, relationship: link.relationship, target: target, mirrorsOneToOne: mirrorsOneToOne,
                                  inverseWasToMany: inverseWasToMany)
            try insert(target, position: position, kind: kind, source: .row(pk), namespace: namespace, origin: origin, account: account)
        }
    }

    /// Stages one target of a link of the record with source key `key`, at `position` among its
    /// targets; its row is found through the key map when the links are resolved (edges read
    /// apart from their records, one at a time), given at `origin`. `sourceIsMissing`: no record
    /// of the source has `key` (`StagedLinks.Source.missing`); `inverseWasToMany`: as for a
    /// record's links.
    func stage(_ target: RecordLink.Target, position: Int, relationship name: String, from entity: String, sourceKey key: RecordKey,
               sourceIsMissing: Bool = false, inverseWasToMany: Bool = false, namespace: Int, origin: LinkOrigin) throws(GraphWriteError) {
        if try !isToMany(name, of: entity), position > 0 {
            // Edges arrive one at a time: how many the record lists is not known yet.
            throw try severalForToOne(entity, name, origin: origin, count: "more than one")
        }
        try insert(target, position: position,
                   kind: kindID(entity: entity, relationship: name, target: target, inverseWasToMany: inverseWasToMany),
                   source: sourceIsMissing ? .missing(key.sourceKey) : .key(key.sourceKey), namespace: namespace, origin: origin, account: nil)
    }

    /// A record that lists several destinations of what is a to-one in the version written (a
    /// to-many before): the run stops, naming the record (`ToOneGivenSeveral`).
    private func severalForToOne(_ entity: String, _ name: String, origin: LinkOrigin, count: String) throws(GraphWriteError) -> GraphWriteError {
        let relationship = try relationship(name, of: entity)
        let inverse = model.inverse(of: relationship).map { (entity: relationship.destinationEntity, relationship: $0.name) }
        return ToOneGivenSeveral.listed(entity: entity, relationship: name, inverse: inverse, origin: origin, count: count)
    }

    private func insert(_ target: RecordLink.Target, position: Int, kind: Int, source: StagedLinks.Source, namespace: Int,
                        origin: LinkOrigin, account: Int?) throws(GraphWriteError) {
        let destination: StagedLinks.Destination
        switch target {
        case .key(let key):
            destination = .key(key.sourceKey)
        case .match(_, let value):
            // In the destination column's form, so that staged values compare with (and become) stored ones.
            let storable = kinds[kind].matchAttribute?.allowsExternalBinaryDataStorage == true
            destination = .value(StoreValue(value, externallyStorable: storable))
        }
        try GraphWriteError.wrap { () throws(StoreWriterError) in
            try tables.stage(kind: kind, from: source, position: position, namespace: namespace, to: destination,
                             origin: origin, account: account)
        }
    }

    /// Whether the relationship `name` of `entity` (declared or inherited) is to-many.
    private func isToMany(_ name: String, of entity: String) throws(GraphWriteError) -> Bool {
        let key = KindKey(entity: entity, relationship: name, matchAttribute: nil)
        if let known = toMany[key] { return known }
        let found = try relationship(name, of: entity).isToMany
        toMany[key] = found
        return found
    }

    /// A relationship of an entity (declared or inherited).
    private func relationship(_ name: String, of entity: String) throws(GraphWriteError) -> Relationship {
        guard let found = model.allRelationships(of: entity).first(where: { $0.name == name }) else {
            throw .unknownRelationship(entity: entity, relationship: name)
        }
        return found
    }

    /// The kind of a link of `entity`'s relationship `name` to `target`, made on first use.
    private func kindID(entity: String, relationship name: String, target: RecordLink.Target,
                        mirrorsOneToOne: Bool = true, inverseWasToMany: Bool) throws(GraphWriteError) -> Int {
        let matchAttribute: String?
        if case let .match(attribute, _) = target { matchAttribute = attribute } else { matchAttribute = nil }
        let key = KindKey(entity: entity, relationship: name, matchAttribute: matchAttribute, mirrorsOneToOne: mirrorsOneToOne,
                          inverseWasToMany: inverseWasToMany)
        if let id = kindIDs[key] { return id }
        let relationship = try relationship(name, of: entity)
        var attribute: Attribute?
        if let matchAttribute {
            attribute = model.allAttributes(of: relationship.destinationEntity).first { $0.name == matchAttribute }
            guard attribute != nil else {
                throw .unsupportedLink(entity: entity, relationship: relationship.name,
                                       reason: "\(relationship.destinationEntity) has no attribute '\(matchAttribute)' to match")
            }
        }
        let id = kinds.count
        kinds.append(LinkKind(id: id, entity: entity, relationship: relationship, matchAttribute: attribute, mirrorsOneToOne: mirrorsOneToOne,
                              inverseWasToMany: inverseWasToMany))
        kindIDs[key] = id
        return id
    }
}

private extension RecordKey {
    /// The key as the key map holds it: a row's `Z_PK` in the scope of its table's root, any
    /// other key in the scope of the whole source.
    var sourceKey: SourceKey {
        switch self {
        case .integer(let number): SourceKey(.integer(number))
        case .text(let text): SourceKey(.text(text))
        case let .row(number, root): SourceKey(.integer(number), scope: Int64(root))
        }
    }
}
