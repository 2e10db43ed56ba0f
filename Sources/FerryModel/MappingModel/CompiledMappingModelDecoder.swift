/// Decodes a compiled mapping model (`.cdm`, XcodeServer's `.cdm_precompiled`): a binary-plist
/// keyed archive rooted at `NSMappingModel` (coredata-format.md §10.2). `NSEntityMappings` gives
/// the order; `NSEntityMappingsByName` must name the same mappings.
enum CompiledMappingModelDecoder {
    static func decode(_ bytes: [UInt8], path: String) throws(MappingModelLoadError) -> CoreDataMappingModel {
        do {
            let archive = try KeyedArchive(bytes: bytes)
            let root = try archive.root()
            guard root.className == "NSMappingModel" else {
                throw MappingModelLoadError.notAMappingModel(path: path, reason: "the archive's root is a \(root.className), not an NSMappingModel")
            }
            var mappings: [CoreDataEntityMapping] = []
            for (offset, index) in try root.elements("NSEntityMappings").enumerated() {
                let object = try archive.object(at: index, keyPath: root.path("NSEntityMappings") + "[\(offset)]")
                mappings.append(try entityMapping(object, archive: archive))
            }
            let byName = try root.entries("NSEntityMappingsByName").map(\.key)
            guard byName.sorted() == mappings.map(\.name).sorted() else {
                throw MappingModelLoadError.inconsistent(file: path, reason: "NSEntityMappingsByName names other mappings than NSEntityMappings")
            }
            return CoreDataMappingModel(path: path, entityMappings: mappings)
        } catch let error as MappingModelLoadError {
            throw error
        } catch let error as KeyedArchiveError {
            throw .archive(file: path, place: "the mapping model", .archive(error))
        } catch let error as ModelArchiveError {
            throw .archive(file: path, place: "the mapping model", error)
        } catch {
            throw .notAMappingModel(path: path, reason: "\(error)")
        }
    }

    private static func entityMapping(_ object: ArchivedObject, archive: KeyedArchive) throws -> CoreDataEntityMapping {
        guard object.className == "NSEntityMapping", let name = try object.string("NSMappingName") else {
            throw ModelArchiveError.invalid(reason: "an entity mapping needs the class NSEntityMapping and a name", keyPath: object.keyPath)
        }
        let code = try object.integer("NSMappingType") ?? 0
        guard let type = CoreDataEntityMappingType(rawValue: code) else {
            throw ModelArchiveError.invalid(reason: "entity mapping \(name) has the unknown type \(code)", keyPath: object.path("NSMappingType"))
        }
        let reader = ArchivedExpressionReader(archive: archive)
        func expression(_ owner: ArchivedObject, _ key: String) throws -> ArchivedExpression? {
            try owner.reference(key).map { index throws in try reader.expression(at: index, keyPath: owner.path(key)) }
        }
        func hash(_ key: String) throws -> [UInt8]? {
            switch try archive.value(of: object, key: key) {
            case .null: return nil
            case .data(let bytes): return bytes
            default: throw ModelArchiveError.invalid(reason: "\(key) is not data", keyPath: object.path(key))
            }
        }
        func properties(_ key: String) throws -> [CoreDataPropertyMapping] {
            try object.elements(key).enumerated().map { offset, index throws in
                let property = try archive.object(at: index, keyPath: object.path(key) + "[\(offset)]")
                guard let propertyName = try property.string("NSDestinationPropertyName") else {
                    throw ModelArchiveError.invalid(reason: "a property mapping without a destination property", keyPath: property.keyPath)
                }
                return CoreDataPropertyMapping(name: propertyName, valueExpression: try expression(property, "NSValueExpression"))
            }
        }
        return CoreDataEntityMapping(
            name: name, type: type, sourceEntityName: try object.string("NSSourceEntityName"), sourceEntityVersionHash: try hash("NSSourceEntityVersionHash"),
            destinationEntityName: try object.string("NSDestinationEntityName"),
            destinationEntityVersionHash: try hash("NSDestinationEntityVersionHash"),
            sourceExpression: try expression(object, "NSSourceExpression"),
            migrationPolicyClassName: try object.string("NSEntityMigrationPolicyClassName"),
            attributeMappings: try properties("NSAttributeMappings"), relationshipMappings: try properties("NSRelationshipMappings"))
    }
}
