import FerryModel
import FerryStore

/// Writes records of several entities into a new store and links them, without holding the
/// object graph in memory.
///
/// Rows go in as they come. A record's source key and the `Z_PK` it got are kept in a key map,
/// and its links are staged, both in a scratch database beside the store's connection. When
/// every record is in, `resolveLinks()` turns the staged links into foreign keys, join-table
/// rows and order keys with set-based SQL. Records that collide on a uniqueness constraint are
/// handled by a `DuplicatePolicy`.
public final class StoreGraphWriter {
    /// What became of one record.
    public enum Outcome: Sendable, Equatable {
        case inserted
        /// Merged into the record already there (a duplicate on `constraint`).
        case merged(constraint: [String])
        case rejected(reason: String)
    }

    public let writer: CoreDataStoreWriter
    let model: ManagedObjectModel
    let duplicates: DuplicatePolicy
    /// Per destination entity policies that override `duplicates`.
    let duplicatesByEntity: [String: DuplicatePolicy]
    /// Per destination entity, attributes whose values identify a record although the model has
    /// no uniqueness constraint on them (a written mapping's `unique ATTRIBUTE …`).
    let identityKeys: [String: [String]]
    private var identities: IdentityIndex?
    /// `Entity.relationship` whose match destinations are created when missing.
    let createMissing: Set<String>
    private var writing: [String: EntityWriting] = [:]
    private var lastWriting: EntityWriting?
    private var staging: LinkStaging?

    /// - Parameters:
    ///   - duplicates: what to do with records that collide on a uniqueness constraint;
    ///     `duplicatesByEntity` overrides it per entity.
    ///   - createMissing: relationships (`Entity.relationship`) whose destinations found by an
    ///     attribute value are created when no record has that value (find or create).
    public init(writer: CoreDataStoreWriter, model: ManagedObjectModel, duplicates: DuplicatePolicy = .reject,
                duplicatesByEntity: [String: DuplicatePolicy] = [:], identityKeys: [String: [String]] = [:],
                createMissing: Set<String> = []) {
        self.writer = writer
        self.model = model
        self.duplicates = duplicates
        self.duplicatesByEntity = duplicatesByEntity
        self.identityKeys = identityKeys
        self.createMissing = createMissing
    }

    /// Writes one record of the schema's entity. `namespace` tells sources apart, so the same key
    /// in two sources names two records.
    public func write(_ record: Record, schema: RecordSchema, namespace: Int) throws(GraphWriteError) -> Outcome {
        let target = try entityWriting(for: schema)
        let rows = target.rows
        let primaryKey: Int64
        var outcome = Outcome.inserted
        let identity = try identity(of: record, target: target)
        let inserted: EntityRowWriter.Outcome
        if let identity, let existing = try identities?.primaryKey(for: identity, entity: target.entity) {
            inserted = .duplicate(of: existing, constraint: target.identity?.names ?? [])
        } else {
            inserted = try rows.insert(record.values)
        }
        switch inserted {
        case .inserted(let key):
            primaryKey = key
            if let identity { try identities?.remember(identity, entity: target.entity, primaryKey: key) }
        case let .duplicate(existing, constraint):
            switch target.duplicates {
            case .reject:
                return .rejected(reason: "duplicate of an earlier record on unique (\(constraint.joined(separator: ", ")))")
            case .keepFirst:
                break
            case .keepNewest:
                try rows.replace(existing, with: record.values)
            }
            primaryKey = existing
            outcome = .merged(constraint: constraint)
        }
        if record.key != nil || !record.links.isEmpty {
            let staging = try linkStaging()
            if let key = record.key {
                try staging.mapKey(key, namespace: namespace, root: target.rootNumber, to: primaryKey)
            }
            for link in record.links where !link.targets.isEmpty {
                try staging.stage(link, from: target.entity, primaryKey: primaryKey, namespace: namespace)
            }
        }
        return outcome
    }

    /// Stages one link target of a record already written, named by its source key, at
    /// `position` among that record's targets: for edges read apart from their records (a
    /// store's many-to-many join table), one at a time.
    public func stageLink(to target: RecordLink.Target, position: Int, relationship: String, ofRecordWithKey key: RecordKey,
                          entity: String, namespace: Int) throws(GraphWriteError) {
        try linkStaging().stage(target, position: position, relationship: relationship, from: entity, sourceKey: key, namespace: namespace)
    }

    /// Resolves every staged link into foreign keys, join rows and order keys; one report per
    /// relationship that had links. Call once, after the last record and before `writer.finish()`.
    public func resolveLinks() throws(GraphWriteError) -> [LinkReport] {
        guard let staging else { return [] }
        try staging.finishKeys()
        let resolver = LinkResolver(writer: writer, model: model, createMissing: createMissing)
        return try staging.kinds.map { kind throws(GraphWriteError) in try resolver.resolve(kind) }
    }

    /// Remembers a record already in the store (when appending) under its identity key, so that
    /// records written later with the same key are duplicates of it.
    public func rememberExisting(_ values: [AttributeValue], schema: RecordSchema, primaryKey: Int64) throws(GraphWriteError) {
        let target = try entityWriting(for: schema)
        let record = Record(values: values, location: SourceLocation(file: writer.path))
        guard let identity = try identity(of: record, target: target) else { return }
        try identities?.remember(identity, entity: target.entity, primaryKey: primaryKey)
    }

    /// The identity key of a record whose entity has one (nil values make no identity).
    private func identity(of record: Record, target: EntityWriting) throws(GraphWriteError) -> [UInt8]? {
        guard let identity = target.identity else { return nil }
        var key: [UInt8] = []
        for index in identity.attributes {
            guard let index, record.values[index] != .null else { return nil }
            IdentityIndex.append(record.values[index], to: &key)
        }
        if identities == nil { identities = try IdentityIndex(writer: writer) }
        return key
    }

    /// What writing records of one entity needs, found once per entity.
    private final class EntityWriting {
        let entity: String
        let rows: EntityRowWriter
        let duplicates: DuplicatePolicy
        /// The identity attributes (names, and their indexes in the schema) when the entity has some.
        let identity: (names: [String], attributes: [Int?])?
        /// The store's number of the entity's root, which the key map is kept by.
        let rootNumber: Int64

        init(entity: String, rows: EntityRowWriter, duplicates: DuplicatePolicy, identity: (names: [String], attributes: [Int?])?,
             rootNumber: Int64) {
            self.entity = entity
            self.rows = rows
            self.duplicates = duplicates
            self.identity = identity
            self.rootNumber = rootNumber
        }
    }

    private func entityWriting(for schema: RecordSchema) throws(GraphWriteError) -> EntityWriting {
        let name = schema.entity.name
        if let last = lastWriting, last.entity == name { return last }
        if let known = writing[name] {
            lastWriting = known
            return known
        }
        guard let root = model.rootEntity(of: name), let number = writer.layout.entityNumbers[root.name] else {
            throw .unknownEntity(name)
        }
        let made = EntityWriting(
            entity: name, rows: try EntityRowWriter(writer: writer, model: model, schema: schema),
            duplicates: duplicatesByEntity[name] ?? duplicates,
            identity: identityKeys[name].map { names in (names, names.map { schema.index(of: $0) }) }, rootNumber: Int64(number))
        writing[name] = made
        lastWriting = made
        return made
    }

    private func linkStaging() throws(GraphWriteError) -> LinkStaging {
        if let staging { return staging }
        let created = try LinkStaging(writer: writer, model: model)
        staging = created
        return created
    }
}
