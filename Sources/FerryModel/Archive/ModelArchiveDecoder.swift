import FerryFormats

/// Decodes a Core Data model from its `NSKeyedArchiver` form: a compiled `.mom` file, or the
/// `Z_MODELCACHE` blob of a SQLite store (modelcache-format.md).
///
/// The result holds what the Xcode model XML would hold: each entity lists only the properties it
/// declares (store caches repeat inherited ones in every sub-entity, as copies or as proxies; the
/// model's `inheritedPropertyForm` records which), renaming identifiers are nil
/// when they equal the name, and fetch indexes Core Data synthesizes for indexed attributes are
/// dropped again. Back- and cross-references (property → entity, relationship → inverse, …) are
/// resolved by name or index, never followed recursively.
public enum ModelArchiveDecoder {
    /// Decodes a `.mom` file's bytes (a binary plist keyed archive).
    /// - Parameter name: the model (version) name to give the result.
    public static func decodeModel(archive bytes: [UInt8], name: String) throws(ModelArchiveError) -> ManagedObjectModel {
        let archive: KeyedArchive
        do { archive = try KeyedArchive(bytes: bytes) } catch { throw .archive(error) }
        return try ArchivedModelReader(archive: archive).model(name: name)
    }

    /// Decodes a store's `Z_MODELCACHE.Z_CONTENT`: raw DEFLATE of the same archive.
    /// - Parameter limit: the most bytes the inflated archive may hold.
    public static func decodeModelCache(_ deflated: [UInt8], name: String,
                                        limit: Int = RawDeflate.defaultOutputLimit) throws(ModelArchiveError) -> ManagedObjectModel {
        let bytes: [UInt8]
        do { bytes = try RawDeflate.inflate(deflated, limit: limit) } catch { throw .deflate(error) }
        return try decodeModel(archive: bytes, name: name)
    }
}

/// Walks the object graph of one model archive (modelcache-format.md §8).
struct ArchivedModelReader {
    let archive: KeyedArchive

    /// One entity as archived: its object, parent name and every listed property (inherited copies
    /// included, proxies unwrapped), and whether it listed any `_NSPropertyDescriptionProxy`.
    struct ArchivedEntity {
        var object: ArchivedObject
        var parentName: String?
        var properties: [(name: String, object: ArchivedObject)]
        var listsProxies: Bool
    }

    func model(name: String) throws(ModelArchiveError) -> ManagedObjectModel {
        do {
            let root = try archive.root()
            guard root.className == "NSManagedObjectModel" else { throw ModelArchiveError.notAManagedObjectModel(rootClass: root.className) }
            let listed = try root.entries("NSEntities")
            var names: [Int: String] = [:]
            for (key, index) in listed {
                let entity = try archive.object(at: index, keyPath: root.path("NSEntities") + "[\(key)]")
                let entityName = try entity.string("NSEntityName")
                guard entity.className == "NSEntityDescription", entityName == key else {
                    throw ModelArchiveError.invalid(reason: "entity '\(key)' is a \(entity.className) named '\(entityName ?? "nil")'",
                                                    keyPath: entity.keyPath)
                }
                guard names.updateValue(key, forKey: index) == nil, Set(names.values).count == names.count else {
                    throw ModelArchiveError.invalid(reason: "entity '\(key)' is listed twice", keyPath: entity.keyPath)
                }
            }
            var entities: [String: ArchivedEntity] = [:]
            for (key, index) in listed {
                entities[key] = try archivedEntity(at: index, name: key, entityNames: names)
            }
            try checkInheritance(entities)
            var decoded: [Entity] = []
            for (key, raw) in entities {
                decoded.append(try entity(key, raw, all: entities, entityNames: names))
            }
            let model = ManagedObjectModel(
                name: name, versionIdentifier: try versionIdentifier(root), entities: decoded,
                configurations: try configurations(root, entityNames: names),
                fetchRequests: try fetchRequests(root, entityNames: names),
                inheritedPropertyForm: entities.values.contains(where: \.listsProxies) ? .proxies : .copies)
            if let problem = ModelConsistency.problem(in: model) { throw ModelArchiveError.invalid(reason: problem, keyPath: root.path("NSEntities")) }
            return model
        } catch let error as ModelArchiveError {
            throw error
        } catch let error as KeyedArchiveError {
            throw .archive(error)
        } catch {
            throw .invalid(reason: "\(error)", keyPath: "$top.root")
        }
    }

    /// `NSVersionIdentifiers`: a one-element set holds the identifier; an empty set means none.
    private func versionIdentifier(_ root: ArchivedObject) throws(KeyedArchiveError) -> String? {
        let members = try root.elements("NSVersionIdentifiers")
        return try members.first.map { index throws(KeyedArchiveError) in
            try archive.string(at: index, keyPath: root.path("NSVersionIdentifiers") + "[0]")
        }
    }

    private func configurations(_ root: ArchivedObject, entityNames: [Int: String]) throws -> [Configuration] {
        var result: [Configuration] = []
        for (name, setIndex) in try root.entries("NSConfigurations") {
            let set = try archive.object(at: setIndex, keyPath: root.path("NSConfigurations") + "[\(name)]")
            let members = try set.ownElements().map { index throws in try entityName(index, entityNames, keyPath: set.keyPath) }
            result.append(Configuration(name: name, entityNames: members.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }))
        }
        return result.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    private func fetchRequests(_ root: ArchivedObject, entityNames: [Int: String]) throws -> [FetchRequestTemplate] {
        var result: [FetchRequestTemplate] = []
        for (name, index) in try root.entries("NSFetchRequestTemplates") {
            let request = try archive.object(at: index, keyPath: root.path("NSFetchRequestTemplates") + "[\(name)]")
            let entity = try request.reference("NSEntity").map { index throws in try entityName(index, entityNames, keyPath: request.path("NSEntity")) }
            result.append(FetchRequestTemplate(name: name, entity: entity ?? "", predicateString: try predicate(of: request)))
        }
        return result.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The predicate text of an `NSFetchRequest`.
    func predicate(of request: ArchivedObject) throws -> String? {
        guard let index = try request.reference("NSPredicate") else { return nil }
        return try ArchivedPredicateFormat(archive: archive).text(at: index, keyPath: request.path("NSPredicate"))
    }

    /// The name of a referenced entity; it must be one of the model's entities.
    func entityName(_ index: Int, _ entityNames: [Int: String], keyPath: String) throws -> String {
        guard let name = entityNames[index] else {
            throw ModelArchiveError.invalid(reason: "object \(index) is not an entity of the model", keyPath: keyPath)
        }
        return name
    }

    private func archivedEntity(at index: Int, name: String, entityNames: [Int: String]) throws -> ArchivedEntity {
        let object = try archive.object(at: index, keyPath: "$objects[\(index)](\(name))")
        let parent = try object.reference("NSSuperentity").map { target throws in
            try entityName(target, entityNames, keyPath: object.path("NSSuperentity"))
        }
        var properties: [(name: String, object: ArchivedObject)] = []
        var listsProxies = false
        for (key, propertyIndex) in try object.entries("NSProperties") {
            var property = try archive.object(at: propertyIndex, keyPath: object.path("NSProperties") + "[\(key)]")
            if property.className == "_NSPropertyDescriptionProxy", let underlying = try property.object("NSUnderlyingProperty") {
                property = underlying
                listsProxies = true
            }
            guard try property.string("NSPropertyName") == key else {
                throw ModelArchiveError.invalid(reason: "property key '\(key)' differs from its NSPropertyName", keyPath: property.keyPath)
            }
            guard !properties.contains(where: { $0.name == key }) else {
                throw ModelArchiveError.invalid(reason: "property '\(key)' is listed twice", keyPath: property.keyPath)
            }
            properties.append((key, property))
        }
        return ArchivedEntity(object: object, parentName: parent, properties: properties, listsProxies: listsProxies)
    }

    /// Rejects loops in the super-entity chain.
    private func checkInheritance(_ entities: [String: ArchivedEntity]) throws {
        for (name, entity) in entities {
            var seen: Set<String> = [name]
            var next = entity.parentName
            while let current = next {
                guard seen.insert(current).inserted else {
                    throw ModelArchiveError.invalid(reason: "the super-entity chain of '\(name)' loops", keyPath: entity.object.path("NSSuperentity"))
                }
                next = entities[current]?.parentName
            }
        }
    }

    private func entity(_ name: String, _ raw: ArchivedEntity, all: [String: ArchivedEntity], entityNames: [Int: String]) throws -> Entity {
        let object = raw.object
        var inheritedNames: Set<String> = []
        var ancestor = raw.parentName
        while let current = ancestor, let entity = all[current] {
            inheritedNames.formUnion(entity.properties.map(\.name))
            ancestor = entity.parentName
        }
        var entity = Entity(
            name: name, representedClassName: try object.string("NSClassNameForEntity"), parentName: raw.parentName,
            isAbstract: try object.flag("NSIsAbstract"),
            renamingIdentifier: try object.string("NSRenamingIdentifier").flatMap { $0 == name ? nil : $0 },
            versionHashModifier: try object.string("NSVersionHashModifier"),
            userInfo: try userInfo(object, key: "NSUserInfo"))
        let properties = ArchivedPropertyReader(archive: archive, entityNames: entityNames, reader: self)
        for (propertyName, property) in raw.properties where !inheritedNames.contains(propertyName) {
            switch property.className {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                entity.attributes.append(try properties.attribute(property, name: propertyName))
            case "NSRelationshipDescription":
                entity.relationships.append(try properties.relationship(property, name: propertyName))
            case "NSFetchedPropertyDescription":
                entity.fetchedProperties.append(try properties.fetchedProperty(property, name: propertyName))
            default:
                throw ModelArchiveError.invalid(reason: "property '\(propertyName)' has the unsupported class \(property.className)",
                                                keyPath: property.keyPath)
            }
        }
        entity.attributes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        entity.relationships.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        entity.fetchedProperties.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        entity.uniquenessConstraints = try uniquenessConstraints(object)
        try applyFetchIndexes(object, to: &entity)
        return entity
    }

    /// `NSUniqueTuples`: arrays of property names (or, in older archives, of property objects).
    private func uniquenessConstraints(_ object: ArchivedObject) throws -> [[String]] {
        try object.elements("NSUniqueTuples").enumerated().map { offset, tupleIndex throws in
            let tuple = try archive.object(at: tupleIndex, keyPath: object.path("NSUniqueTuples") + "[\(offset)]")
            return try tuple.ownElements().map { member throws in
                if try archive.className(at: member, keyPath: tuple.keyPath).map({ $0.hasSuffix("Description") }) == true {
                    let property = try archive.object(at: member, keyPath: tuple.keyPath)
                    guard let name = try property.string("NSPropertyName") else {
                        throw ModelArchiveError.invalid(reason: "constraint property has no name", keyPath: property.keyPath)
                    }
                    return name
                }
                return try archive.string(at: member, keyPath: tuple.keyPath)
            }
        }
    }

    /// Reads `NSFetchIndexDescriptions`, drops the indexes Core Data synthesizes for indexed
    /// attributes, and decides `indexed="YES"` (modelcache-format.md §4.8, both rules in order).
    private func applyFetchIndexes(_ object: ArchivedObject, to entity: inout Entity) throws {
        var indexes: [FetchIndex] = []
        for (offset, indexIndex) in try object.elements("NSFetchIndexDescriptions").enumerated() {
            let index = try archive.object(at: indexIndex, keyPath: object.path("NSFetchIndexDescriptions") + "[\(offset)]")
            guard let name = try index.string("NSIndexName") else {
                throw ModelArchiveError.invalid(reason: "fetch index without a name", keyPath: index.keyPath)
            }
            var elements: [FetchIndex.Element] = []
            for (number, elementIndex) in try index.elements("NSIndexElements").enumerated() {
                let element = try archive.object(at: elementIndex, keyPath: index.path("NSIndexElements") + "[\(number)]")
                guard let property = try element.string("NSPropertyName") else {
                    throw ModelArchiveError.invalid(reason: "fetch index element without a property", keyPath: element.keyPath)
                }
                let kind: FetchIndex.Element.Kind = try element.integer("NSFetchIndexElementType") == 1 ? .rTree : .binary
                let ascending = element.fields["NSAscending"] == nil ? true : try element.flag("NSAscending")
                elements.append(FetchIndex.Element(property: property, kind: kind, isAscending: ascending))
            }
            indexes.append(FetchIndex(name: name, elements: elements))
        }
        // Archives of old frameworks (fw 637, objc.io's Moody) hold only the legacy compound indexes.
        if indexes.isEmpty {
            for (offset, compoundIndex) in try object.elements("NSCompoundIndexes").enumerated() {
                let keyPath = object.path("NSCompoundIndexes") + "[\(offset)]"
                guard case .array(let members) = try archive.value(at: compoundIndex, keyPath: keyPath) else { continue }
                let properties = members.compactMap { member -> String? in if case .string(let name) = member { name } else { nil } }
                indexes.append(FetchIndex.compound(properties, among: indexes))
            }
        }
        let indexedNames = Set(entity.attributes.filter(\.isIndexed).map(\.name))
        indexes.removeAll { $0.elements.count == 1 && $0.name == $0.elements[0].property && indexedNames.contains($0.name) }
        let covered = Set(indexes.filter { $0.elements.count == 1 }.map { $0.elements[0].property })
        for offset in entity.attributes.indices where covered.contains(entity.attributes[offset].name) {
            entity.attributes[offset].isIndexed = false
        }
        entity.fetchIndexes = indexes
    }

    /// A string-to-string userInfo dictionary; non-string values are described.
    func userInfo(_ object: ArchivedObject, key: String) throws -> [String: String] {
        guard case .dictionary(let entries) = try archive.value(of: object, key: key) else { return [:] }
        var result: [String: String] = [:]
        for entry in entries {
            guard case .string(let name) = entry.key else {
                throw ModelArchiveError.invalid(reason: "userInfo key is not a string", keyPath: object.path(key))
            }
            result[name] = ArchivedDefaultValue.text(of: entry.value, type: .string)
        }
        return result
    }
}
