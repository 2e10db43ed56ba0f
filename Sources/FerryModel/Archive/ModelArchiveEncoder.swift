import FerryFormats

/// Encodes a model as Core Data's `NSKeyedArchiver` form, as a store's model cache holds it
/// (modelcache-format.md): `NSKnownKeysDictionary1` for the entities, inherited properties copied
/// into every sub-entity (or proxies for them, as the model's `inheritedPropertyForm` says), `_P`
/// flag words, renaming identifiers defaulting to the name, and the fetch indexes Core Data
/// synthesizes for indexed attributes.
///
/// Fields the archive cannot hold are left out: `usesScalarValueType`, and `customClassName` for
/// any type but Transformable (there the archive names the class the type implies).
public enum ModelArchiveEncoder {
    /// The keyed-archive binary plist of a model.
    public static func encodeModel(_ model: ManagedObjectModel) throws(ModelArchiveError) -> [UInt8] {
        var writer = ArchivedModelWriter(model: model)
        let root = try writer.writeModel()
        do { return try writer.builder.encoded(root: root) } catch {
            throw .unencodable(reason: "\(error)", path: model.name)
        }
    }

    /// The model as a store's `Z_MODELCACHE.Z_CONTENT`: raw DEFLATE of `encodeModel`.
    public static func encodeModelCache(_ model: ManagedObjectModel) throws(ModelArchiveError) -> [UInt8] {
        let archive = try encodeModel(model)
        do { return try RawDeflate.deflate(archive) } catch { throw .deflate(error) }
    }
}

/// Writes one model into a `KeyedArchiveBuilder`.
struct ArchivedModelWriter {
    let model: ManagedObjectModel
    var builder = KeyedArchiveBuilder()
    /// Entity name → its object.
    private(set) var entityUIDs: [String: UInt64] = [:]
    /// Entity name → property name → the object listed in that entity's `NSProperties`.
    private(set) var propertyUIDs: [String: [String: UInt64]] = [:]
    private(set) var rootUID: UInt64 = 0

    init(model: ManagedObjectModel) {
        self.model = model
    }

    mutating func writeModel() throws(ModelArchiveError) -> UInt64 {
        try validate()
        rootUID = builder.reserve()
        for entity in model.entities { entityUIDs[entity.name] = builder.reserve() }
        for entity in model.entities {
            for property in allPropertyNames(of: entity.name) {
                propertyUIDs[entity.name, default: [:]][property] = builder.reserve()
            }
        }
        for entity in model.entities { try writeEntity(entity) }

        let names = model.entities.map(\.name)
        let mapping = builder.add("NSKnownKeysMappingStrategy1", [
            "keys": builder.collection(names.map { builder.string($0) }), "length": .integer(Int128(names.count)),
            "version": .integer(1),
        ])
        let entities = builder.add("NSKnownKeysDictionary1", [
            "searchMapping": mapping, "values": builder.collection(names.map { .uid(entityUIDs[$0] ?? 0) }),
            "emptyToken": builder.string("__empty_slot_token_4c24_98dc_ac1e_b773__"), "version": .integer(1),
        ])
        var fields: [String: PropertyListValue] = [
            "NSEntities": entities,
            "NSVersionIdentifiers": builder.collection(model.versionIdentifiers.map { builder.string($0) }, className: "NSSet"),
            "NSFetchRequestTemplates": try fetchRequestTemplates(),
        ]
        if !model.configurations.isEmpty {
            let entries = model.configurations.map { configuration in
                (key: builder.string(configuration.name),
                 value: builder.collection(configuration.entityNames.map { .uid(entityUIDs[$0] ?? 0) }, className: "NSSet"))
            }
            fields["NSConfigurations"] = builder.dictionary(entries, className: "NSMutableDictionary")
        }
        builder.fill(rootUID, className: "NSManagedObjectModel", fields: fields)
        return rootUID
    }

    /// Names of every property an entity lists: inherited ones (root first) and its own.
    func allPropertyNames(of entity: String) -> [String] {
        model.ancestry(of: entity).reversed().flatMap(declaredPropertyNames)
    }

    /// Names of the properties an entity declares itself.
    func declaredPropertyNames(_ entity: Entity) -> [String] {
        entity.attributes.map(\.name) + entity.relationships.map(\.name) + entity.fetchedProperties.map(\.name)
    }

    /// The entity in `entity`'s ancestry (itself first) that declares `property`.
    func declaringEntity(of property: String, from entity: String) -> Entity? {
        model.ancestry(of: entity).first { candidate in
            candidate.attributes.contains { $0.name == property } || candidate.relationships.contains { $0.name == property }
                || candidate.fetchedProperties.contains { $0.name == property }
        }
    }

    /// The archive needs a well-formed graph: known parents without loops, unique property names
    /// along each inheritance chain, known destinations and configuration members.
    private func validate() throws(ModelArchiveError) {
        let known = Set(model.entities.map(\.name))
        for configuration in model.configurations {
            for member in configuration.entityNames where !known.contains(member) {
                throw .unencodable(reason: "unknown entity '\(member)'", path: "configuration \(configuration.name)")
            }
        }
        for entity in model.entities {
            if let parent = entity.parentName {
                guard known.contains(parent) else { throw .unencodable(reason: "unknown parent entity '\(parent)'", path: entity.name) }
                guard model.ancestry(of: entity.name).last?.parentName == nil else {
                    throw .unencodable(reason: "the parent chain loops", path: entity.name)
                }
            }
            let names = allPropertyNames(of: entity.name)
            guard Set(names).count == names.count else {
                throw .unencodable(reason: "a property name repeats along the inheritance chain", path: entity.name)
            }
            for relationship in entity.relationships where !known.contains(relationship.destinationEntity) {
                throw .unencodable(reason: "unknown destination '\(relationship.destinationEntity)'", path: "\(entity.name).\(relationship.name)")
            }
        }
    }

    private mutating func writeEntity(_ entity: Entity) throws(ModelArchiveError) {
        let uid = entityUIDs[entity.name] ?? 0
        let own = propertyUIDs[entity.name] ?? [:]
        for ancestor in model.ancestry(of: entity.name).reversed() {
            if ancestor.name != entity.name, model.inheritedPropertyForm == .proxies {
                writeProxies(for: ancestor, into: own, listedBy: entity)
                continue
            }
            for attribute in ancestor.attributes {
                try writeAttribute(attribute, of: ancestor, into: own[attribute.name] ?? 0, listedBy: uid)
            }
            for relationship in ancestor.relationships {
                try writeRelationship(relationship, into: own[relationship.name] ?? 0, listedBy: uid)
            }
            for fetched in ancestor.fetchedProperties {
                try writeFetchedProperty(fetched, into: own[fetched.name] ?? 0, listedBy: uid, path: "\(ancestor.name).\(fetched.name)")
            }
        }
        let propertyNames = allPropertyNames(of: entity.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let properties = propertyNames.map { name in (key: builder.string(name), value: PropertyListValue.uid(own[name] ?? 0)) }
        let subentities = model.subentities(of: entity.name).map { child in
            (key: builder.string(child.name), value: PropertyListValue.uid(entityUIDs[child.name] ?? 0))
        }
        var fields: [String: PropertyListValue] = [
            "NSEntityName": builder.string(entity.name),
            "NSClassNameForEntity": builder.string(entity.representedClassName),
            "NSManagedObjectModel": .uid(rootUID),
            "NSSuperentity": entity.parentName.map { .uid(entityUIDs[$0] ?? 0) } ?? KeyedArchiveBuilder.null,
            "NSSubentities": builder.dictionary(subentities, className: "NSMutableDictionary"),
            "NSProperties": builder.dictionary(properties, className: "NSMutableDictionary"),
            "NSUserInfo": builder.stringDictionary(entity.userInfo),
            "NSVersionHashModifier": builder.string(entity.versionHashModifier),
            "NSRenamingIdentifier": builder.string(entity.effectiveRenamingIdentifier),
        ]
        if entity.isAbstract { fields["NSIsAbstract"] = .bool(true) }
        if !entity.uniquenessConstraints.isEmpty {
            let tuples = entity.uniquenessConstraints.map { tuple in
                builder.collection(tuple.map { builder.string($0) }, className: "NSMutableArray")
            }
            fields["NSUniqueTuples"] = builder.collection(tuples, className: "NSMutableArray")
        }
        let indexes = fetchIndexes(of: entity)
        if !indexes.isEmpty {
            fields["NSFetchIndexDescriptions"] = builder.collection(indexes.map { writeFetchIndex($0, entity: uid) }, className: "NSMutableArray")
            let compound = indexes.filter { $0.elements.count > 1 }.map { index in
                builder.collection(index.elements.map { builder.string($0.property) }, className: "NSMutableArray")
            }
            fields["NSCompoundIndexes"] = builder.collection(compound, className: "NSMutableArray")
        }
        builder.fill(uid, className: "NSEntityDescription", fields: fields)
    }

    /// `_NSPropertyDescriptionProxy` objects for the properties `entity` inherits from `ancestor`,
    /// each standing for the ancestor's own object and numbered by Core Data's property order.
    private mutating func writeProxies(for ancestor: Entity, into slots: [String: UInt64], listedBy entity: Entity) {
        let order = PropertyOrder.names(of: entity.name, in: model)
        for name in declaredPropertyNames(ancestor) {
            builder.fill(slots[name] ?? 0, className: "_NSPropertyDescriptionProxy", fields: [
                "NSUnderlyingProperty": .uid(propertyUIDs[ancestor.name]?[name] ?? 0),
                "NSEntityDescription": .uid(entityUIDs[entity.name] ?? 0),
                "NSReferenceID": .integer(Int128(order.firstIndex(of: name) ?? 0)),
            ])
        }
    }

    /// The entity's own fetch indexes, plus one named after each `indexed="YES"` attribute that no
    /// index of that name covers (Core Data synthesizes those; the decoder drops them again).
    func fetchIndexes(of entity: Entity) -> [FetchIndex] {
        var indexes = entity.fetchIndexes
        for attribute in entity.attributes where attribute.isIndexed && !indexes.contains(where: { $0.name == attribute.name }) {
            indexes.append(FetchIndex(name: attribute.name, elements: [FetchIndex.Element(property: attribute.name)]))
        }
        return indexes
    }

    private mutating func writeFetchIndex(_ index: FetchIndex, entity: UInt64) -> PropertyListValue {
        let indexUID = builder.reserve()
        let elements = index.elements.map { element in
            builder.add("NSFetchIndexElementDescription", [
                "NSPropertyName": builder.string(element.property),
                "NSFetchIndexElementType": .integer(element.kind == .rTree ? 1 : 0),
                "NSAscending": .bool(element.isAscending), "NSFetchIndexDescription": .uid(indexUID),
            ])
        }
        builder.fill(indexUID, className: "NSFetchIndexDescription", fields: [
            "NSIndexName": builder.string(index.name), "NSIndexElements": builder.collection(elements),
            "NSPartialIndexPredicate": KeyedArchiveBuilder.null, "NSEntity": .uid(entity),
        ])
        return .uid(indexUID)
    }

    private mutating func fetchRequestTemplates() throws(ModelArchiveError) -> PropertyListValue {
        guard !model.fetchRequests.isEmpty else { return KeyedArchiveBuilder.null }
        var entries: [(key: PropertyListValue, value: PropertyListValue)] = []
        for template in model.fetchRequests {
            let request = try fetchRequest(entity: template.entity, predicate: template.predicateString, path: "fetchRequest \(template.name)")
            entries.append((builder.string(template.name), request))
        }
        return builder.dictionary(entries)
    }

    /// An `NSFetchRequest` for an entity with an optional predicate.
    mutating func fetchRequest(entity: String, predicate: String?, path: String) throws(ModelArchiveError) -> PropertyListValue {
        guard let entityUID = entityUIDs[entity] else { throw .unencodable(reason: "unknown entity '\(entity)'", path: path) }
        let predicateValue: PropertyListValue
        if let predicate {
            predicateValue = try PredicateFormatWriter.predicate(predicate, into: &builder, path: path)
        } else {
            predicateValue = KeyedArchiveBuilder.null
        }
        var fields: [String: PropertyListValue] = [
            "NSEntity": .uid(entityUID), "NSPredicate": predicateValue, "NSHasFetchRequestFlags": .bool(true),
            "NSFetchRequestFlags": .integer(30),
        ]
        for key in ["NSSortDescriptors", "NSValuesToFetch", "NSValuesToGroupBy", "NSHavingPredicate", "NSRelationshipKeyPathsForPrefetching"] {
            fields[key] = KeyedArchiveBuilder.null
        }
        for key in ["NSFetchLimit", "NSFetchOffset", "NSBatchSize", "NSResultType", "NSAllocationType"] {
            fields[key] = .integer(0)
        }
        return builder.add("NSFetchRequest", fields)
    }
}
