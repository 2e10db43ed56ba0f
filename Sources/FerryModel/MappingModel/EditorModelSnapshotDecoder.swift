/// Decodes the model snapshots an `xcmapping.xml` carries (`sourcemodeldata`,
/// `destinationmodeldata`): keyed archives of Xcode's editor classes rooted at `XDPMModel`
/// (modelcache-format.md §1), which hold enough of each model to compute its version hashes and
/// to derive what the mapping compiler derives.
///
/// The graph: `XDPMModel._xd_rootPackage` → `XDModelPackage.XDBucketForClassesstorage` (name →
/// `XDPMEntity`); an entity's `XDBucketForOwnedAttributesstorage` holds its own `XDPMAttribute`s and
/// `XDPMRelationship`s, `XDBucketForGeneralizationsstorage` its parent (`_general`), and its
/// settings live in "stereotypes": `XDBucketForStereotypesstorage` maps a stereotype name
/// (`XD_PStereotype`; `XD_PPropStereotype`, `XD_PAtt_Stereotype`, `XD_PR_Stereotype` on
/// properties) to an object whose `XDBucketForOwnedAttributesstorage` maps each setting
/// (`XD_PPSK_isOptional`, `XD_PAttK_attributeType`, `XD_PRK_destination`, …) to an object holding
/// its value in `_default`. Fetched properties are not version-hashed and are left out.
enum EditorModelSnapshotDecoder {
    /// Decodes a snapshot's archive bytes as the model version `name`.
    static func decode(_ bytes: [UInt8], name: String) throws(ModelArchiveError) -> ManagedObjectModel {
        let archive: KeyedArchive
        do { archive = try KeyedArchive(bytes: bytes) } catch { throw .archive(error) }
        do {
            return try SnapshotReader(archive: archive).model(name: name)
        } catch let error as ModelArchiveError {
            throw error
        } catch let error as KeyedArchiveError {
            throw .archive(error)
        } catch {
            throw .invalid(reason: "\(error)", keyPath: "$top.root")
        }
    }
}

/// Walks one snapshot archive.
private struct SnapshotReader {
    let archive: KeyedArchive

    func model(name: String) throws -> ManagedObjectModel {
        let root = try archive.root()
        guard root.className == "XDPMModel" else { throw ModelArchiveError.notAManagedObjectModel(rootClass: root.className) }
        guard let package = try root.object("_xd_rootPackage") else {
            throw ModelArchiveError.invalid(reason: "the model has no root package", keyPath: root.path("_xd_rootPackage"))
        }
        var entities: [Entity] = []
        for (entityName, index) in try package.entries("XDBucketForClassesstorage") {
            entities.append(try entity(try archive.object(at: index, keyPath: package.path("XDBucketForClassesstorage") + "[\(entityName)]"),
                                       name: entityName))
        }
        let identifier = try root.string("_modelVersionIdentifier")
        return ManagedObjectModel(name: name, versionIdentifier: identifier, entities: entities)
    }

    private func entity(_ object: ArchivedObject, name: String) throws -> Entity {
        guard object.className == "XDPMEntity", try object.string("_name") == name else {
            throw ModelArchiveError.invalid(reason: "entity '\(name)' is a \(object.className) named otherwise", keyPath: object.keyPath)
        }
        let settings = try stereotypes(of: object)["XD_PStereotype"] ?? [:]
        var parent: String?
        for (offset, index) in try object.elements("XDBucketForGeneralizationsstorage").enumerated() {
            let generalization = try archive.object(at: index, keyPath: object.path("XDBucketForGeneralizationsstorage") + "[\(offset)]")
            guard offset == 0, let general = try generalization.object("_general"), let parentName = try general.string("_name") else {
                throw ModelArchiveError.invalid(reason: "entity '\(name)' needs one parent entity with a name", keyPath: generalization.keyPath)
            }
            parent = parentName
        }
        var entity = Entity(
            name: name, representedClassName: try text(settings["XD_PSK_entityClassName"]), parentName: parent,
            isAbstract: try object.flag("_isAbstract"), renamingIdentifier: try text(settings["XD_PSK_elementID"]),
            versionHashModifier: try text(settings["XD_PSK_versionHashModifier"]),
            uniquenessConstraints: try constraints(settings["XDPMUniquenessConstraints"]),
            userInfo: try userInfo(settings["XD_PSK_userInfo"]))
        for (propertyName, index) in try object.entries("XDBucketForOwnedAttributesstorage") {
            let property = try archive.object(at: index, keyPath: object.path("XDBucketForOwnedAttributesstorage") + "[\(propertyName)]")
            switch property.className {
            case "XDPMAttribute": entity.attributes.append(try attribute(property, name: propertyName))
            case "XDPMRelationship": entity.relationships.append(try relationship(property, name: propertyName))
            case let other where other.contains("Fetched"): continue
            case let other:
                throw ModelArchiveError.invalid(reason: "property '\(name).\(propertyName)' has the unsupported class \(other)",
                                                keyPath: property.keyPath)
            }
        }
        entity.attributes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        entity.relationships.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return entity
    }

    private func attribute(_ property: ArchivedObject, name: String) throws -> Attribute {
        let all = try stereotypes(of: property)
        let common = all["XD_PPropStereotype"] ?? [:], own = all["XD_PAtt_Stereotype"] ?? [:]
        let code = try integer(own["XD_PAttK_attributeType"]) ?? 0
        guard let type = AttributeType(rawValue: code) else {
            throw ModelArchiveError.invalid(reason: "attribute '\(name)' has the unknown type \(code)", keyPath: property.keyPath)
        }
        return Attribute(
            name: name, type: type, isOptional: try flag(common["XD_PPSK_isOptional"]), isTransient: try flag(common["XD_PPSK_isTransient"]),
            defaultValueString: try text(own["XD_PAttK_defaultValueAsString"]),
            minValueString: try text(own["XD_PAttK_minValueString"]), maxValueString: try text(own["XD_PAttK_maxValueString"]),
            allowsExternalBinaryDataStorage: try flag(own["XD_PAttK_allowsExternalBinaryDataStorage"]),
            valueTransformerName: try text(own["XD_PAttK_valueTransformerName"]),
            isIndexed: try flag(common["XD_PPSK_isIndexed"]), isIndexedBySpotlight: try flag(common["XD_PPSK_isSpotlightIndexed"]),
            renamingIdentifier: try text(common["XD_PPSK_elementID"]), versionHashModifier: try text(common["XD_PPSK_versionHashModifier"]),
            userInfo: try userInfo(common["XD_PPSK_userInfo"]))
    }

    private func relationship(_ property: ArchivedObject, name: String) throws -> Relationship {
        let all = try stereotypes(of: property)
        let common = all["XD_PPropStereotype"] ?? [:], own = all["XD_PR_Stereotype"] ?? [:]
        guard let destination = try own["XD_PRK_destination"].flatMap({ setting throws in try setting.object("_default") }),
              let destinationName = try destination.string("_name") else {
            throw ModelArchiveError.invalid(reason: "relationship '\(name)' has no destination", keyPath: property.keyPath)
        }
        let inverse = try own["XD_PRK_inverseRelationship"].flatMap { setting throws in try setting.object("_default") }
        let inverseName = try inverse?.string("_name")
        let ruleCode = try integer(own["XD_PRK_deleteRule"]) ?? DeleteRule.nullify.code
        guard let rule = DeleteRule(code: ruleCode) else {
            throw ModelArchiveError.invalid(reason: "relationship '\(name)' has the unknown delete rule \(ruleCode)", keyPath: property.keyPath)
        }
        let isToMany = try flag(own["XD_PRK_isToMany"])
        return Relationship(
            name: name, destinationEntity: destinationName, inverseName: inverseName, inverseEntity: inverseName == nil ? nil : destinationName,
            isOptional: try flag(common["XD_PPSK_isOptional"]), isTransient: try flag(common["XD_PPSK_isTransient"]), isToMany: isToMany,
            minCount: try integer(own["XD_PRK_minCount"]) ?? 0, maxCount: isToMany ? try integer(own["XD_PRK_maxCount"]) ?? 0 : 1,
            isOrdered: try flag(own["XD_PRK_ordered"]), deleteRule: rule, isIndexedBySpotlight: try flag(common["XD_PPSK_isSpotlightIndexed"]),
            renamingIdentifier: try text(common["XD_PPSK_elementID"]), versionHashModifier: try text(common["XD_PPSK_versionHashModifier"]),
            userInfo: try userInfo(common["XD_PPSK_userInfo"]))
    }

    /// Stereotype name → setting name → the object holding the setting's value in `_default`.
    private func stereotypes(of object: ArchivedObject) throws -> [String: [String: ArchivedObject]] {
        var result: [String: [String: ArchivedObject]] = [:]
        for (stereotypeName, index) in try object.entries("XDBucketForStereotypesstorage") {
            let stereotype = try archive.object(at: index, keyPath: object.path("XDBucketForStereotypesstorage") + "[\(stereotypeName)]")
            var settings: [String: ArchivedObject] = [:]
            for (setting, settingIndex) in try stereotype.entries("XDBucketForOwnedAttributesstorage") {
                settings[setting] = try archive.object(at: settingIndex, keyPath: stereotype.path("XDBucketForOwnedAttributesstorage") + "[\(setting)]")
            }
            result[stereotypeName] = settings
        }
        return result
    }

    private func value(_ setting: ArchivedObject?) throws -> ArchivedValue {
        guard let setting else { return .null }
        return try archive.value(of: setting, key: "_default")
    }

    private func text(_ setting: ArchivedObject?) throws -> String? {
        switch try value(setting) {
        case .null: return nil
        case .string(let text): return text
        default: throw ModelArchiveError.invalid(reason: "expected a string", keyPath: setting?.path("_default") ?? "")
        }
    }

    private func flag(_ setting: ArchivedObject?) throws -> Bool {
        switch try value(setting) {
        case .null: return false
        case .bool(let flag): return flag
        case .integer(let number): return number != 0
        default: throw ModelArchiveError.invalid(reason: "expected a boolean", keyPath: setting?.path("_default") ?? "")
        }
    }

    private func integer(_ setting: ArchivedObject?) throws -> Int? {
        switch try value(setting) {
        case .null: return nil
        case .integer(let number):
            guard let fitting = Int(exactly: number) else {
                throw ModelArchiveError.invalid(reason: "\(number) does not fit 64 bits", keyPath: setting?.path("_default") ?? "")
            }
            return fitting
        default: throw ModelArchiveError.invalid(reason: "expected an integer", keyPath: setting?.path("_default") ?? "")
        }
    }

    private func userInfo(_ setting: ArchivedObject?) throws -> [String: String] {
        guard let setting else { return [:] }
        return try ArchivedModelReader(archive: archive).userInfo(setting, key: "_default")
    }

    /// `XDPMUniquenessConstraints`: arrays of property names.
    private func constraints(_ setting: ArchivedObject?) throws -> [[String]] {
        guard case .array(let tuples) = try value(setting) else { return [] }
        return try tuples.map { tuple throws in
            guard case .array(let members) = tuple else {
                throw ModelArchiveError.invalid(reason: "a uniqueness constraint is not an array", keyPath: setting?.path("_default") ?? "")
            }
            return try members.map { member throws in
                guard case .string(let name) = member else {
                    throw ModelArchiveError.invalid(reason: "a uniqueness constraint member is not a name", keyPath: setting?.path("_default") ?? "")
                }
                return name
            }
        }
    }
}
