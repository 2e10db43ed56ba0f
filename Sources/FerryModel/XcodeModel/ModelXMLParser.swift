import FerryFormats

/// Turns the `contents` XML of an `.xcdatamodel` into a `ManagedObjectModel`.
///
/// Unknown elements and attributes are ignored, so models from newer Xcode versions load; a
/// missing or unreadable value that the model needs is an error naming file, line and element.
enum ModelXMLParser {
    static func parse(_ bytes: [UInt8], file: String, versionName: String) throws(ModelLoadError) -> ManagedObjectModel {
        let root: XMLElementTree
        do { root = try SafeXMLParser.parse(bytes, source: file) } catch { throw .xml(error) }
        guard root.name == "model" else {
            throw .invalidElement(file: file, line: root.line, element: root.name, reason: "the root element must be <model>")
        }
        let reader = ElementReader(file: file)
        var entities: [Entity] = []
        var configurations: [Configuration] = []
        var fetchRequests: [FetchRequestTemplate] = []
        for child in root.children {
            switch child.name {
            case "entity": entities.append(try reader.entity(child))
            case "configuration":
                configurations.append(Configuration(
                    name: try reader.required("name", of: child),
                    entityNames: try child.children(named: "memberEntity").map { member throws(ModelLoadError) in
                        try reader.required("name", of: member)
                    }))
            case "fetchRequest":
                fetchRequests.append(FetchRequestTemplate(
                    name: try reader.required("name", of: child), entity: try reader.required("entity", of: child),
                    predicateString: child[attribute: "predicateString"]))
            default: break
            }
        }
        let model = ManagedObjectModel(
            name: versionName, versionIdentifier: root[attribute: "userDefinedModelVersionIdentifier"],
            entities: entities, configurations: configurations, fetchRequests: fetchRequests,
            userInfo: try reader.userInfo(of: root),
            xcodeSettings: XcodeModelSettings(
                minimumToolsVersion: root[attribute: "minimumToolsVersion"], sourceLanguage: root[attribute: "sourceLanguage"],
                usedWithCloudKit: reader.flag("usedWithCloudKit", of: root), usedWithSwiftData: reader.flag("usedWithSwiftData", of: root)))
        try ModelConsistency.check(model, file: file)
        return model
    }
}

/// Reads the pieces of one model file, with errors that point into it.
struct ElementReader {
    let file: String

    func required(_ name: String, of element: XMLElementTree) throws(ModelLoadError) -> String {
        guard let value = element[attribute: name], !value.isEmpty else {
            throw .invalidElement(file: file, line: element.line, element: element.name, reason: "missing '\(name)' attribute")
        }
        return value
    }

    func flag(_ name: String, of element: XMLElementTree) -> Bool {
        element[attribute: name] == "YES"
    }

    func optionalFlag(_ name: String, of element: XMLElementTree) -> Bool? {
        element[attribute: name].map { $0 == "YES" }
    }

    func integer(_ name: String, of element: XMLElementTree) throws(ModelLoadError) -> Int? {
        guard let text = element[attribute: name] else { return nil }
        guard let value = Int(text) else {
            throw .invalidElement(file: file, line: element.line, element: element.name, reason: "'\(name)' is not an integer: \(text)")
        }
        return value
    }

    func double(_ name: String, of element: XMLElementTree) throws(ModelLoadError) -> Double? {
        guard let text = element[attribute: name] else { return nil }
        guard let value = Double(text) else {
            throw .invalidElement(file: file, line: element.line, element: element.name, reason: "'\(name)' is not a number: \(text)")
        }
        return value
    }

    func userInfo(of element: XMLElementTree) throws(ModelLoadError) -> [String: String] {
        var info: [String: String] = [:]
        for block in element.children(named: "userInfo") {
            for entry in block.children(named: "entry") {
                info[try required("key", of: entry)] = entry[attribute: "value"] ?? ""
            }
        }
        return info
    }

    func entity(_ element: XMLElementTree) throws(ModelLoadError) -> Entity {
        var entity = Entity(
            name: try required("name", of: element), representedClassName: element[attribute: "representedClassName"],
            parentName: element[attribute: "parentEntity"], isAbstract: flag("isAbstract", of: element),
            renamingIdentifier: element[attribute: "elementID"], versionHashModifier: element[attribute: "versionHashModifier"],
            userInfo: try userInfo(of: element))
        for child in element.children {
            switch child.name {
            case "attribute": entity.attributes.append(try attribute(child))
            case "relationship": entity.relationships.append(try relationship(child))
            case "fetchedProperty": entity.fetchedProperties.append(try fetchedProperty(child))
            case "uniquenessConstraints":
                for constraint in child.children(named: "uniquenessConstraint") {
                    entity.uniquenessConstraints.append(try constraint.children(named: "constraint").map { item throws(ModelLoadError) in
                        try required("value", of: item)
                    })
                }
            case "fetchIndex": entity.fetchIndexes.append(try fetchIndex(child))
            case "compoundIndexes":
                for compound in child.children(named: "compoundIndex") {
                    let properties = try compound.children(named: "index").map { item throws(ModelLoadError) in try required("value", of: item) }
                    entity.fetchIndexes.append(FetchIndex.compound(properties, among: entity.fetchIndexes))
                }
            default: break
            }
        }
        return entity
    }

    func attribute(_ element: XMLElementTree) throws(ModelLoadError) -> Attribute {
        let name = try required("name", of: element)
        let typeName = element[attribute: "attributeType"] ?? "Undefined"
        guard let type = AttributeType(xcodeName: typeName) else {
            throw .invalidElement(file: file, line: element.line, element: "attribute",
                                  reason: "attribute '\(name)' has unknown attributeType '\(typeName)'")
        }
        if let reason = type.unsupportedReason, !flag("transient", of: element) {
            throw .invalidElement(file: file, line: element.line, element: "attribute", reason: "attribute '\(name)' \(reason)")
        }
        let isDerived = flag("derived", of: element)
        return Attribute(
            name: name, type: type, isOptional: flag("optional", of: element), isTransient: flag("transient", of: element),
            isReadOnly: isDerived,
            defaultValueString: element[attribute: "defaultValueString"].map { ArchivedDefaultValue.compiledText($0, type: type) },
            defaultDateTimeInterval: try double("defaultDateTimeInterval", of: element),
            minValueString: element[attribute: "minValueString"] ?? element[attribute: "minDateTimeInterval"],
            maxValueString: element[attribute: "maxValueString"] ?? element[attribute: "maxDateTimeInterval"],
            allowsExternalBinaryDataStorage: flag("allowsExternalBinaryDataStorage", of: element),
            preserveAfterDeletion: flag("preserveAfterDeletion", of: element),
            isDerived: isDerived, derivationExpression: element[attribute: "derivationExpression"].map(DerivationExpression.normalized),
            valueTransformerName: element[attribute: "valueTransformerName"], customClassName: element[attribute: "customClassName"],
            usesScalarValueType: optionalFlag("usesScalarValueType", of: element),
            isIndexed: flag("indexed", of: element), isIndexedBySpotlight: flag("spotlightIndexingEnabled", of: element),
            renamingIdentifier: element[attribute: "elementID"], versionHashModifier: element[attribute: "versionHashModifier"],
            userInfo: try userInfo(of: element),
            validationRules: element[attribute: "regularExpressionString"].map { [.pattern($0)] } ?? [])
    }

    func relationship(_ element: XMLElementTree) throws(ModelLoadError) -> Relationship {
        let name = try required("name", of: element)
        let ruleName = element[attribute: "deletionRule"] ?? "Nullify"
        guard let rule = DeleteRule(rawValue: ruleName) else {
            throw .invalidElement(file: file, line: element.line, element: "relationship",
                                  reason: "relationship '\(name)' has unknown deletionRule '\(ruleName)'")
        }
        let isToMany = flag("toMany", of: element)
        return Relationship(
            name: name, destinationEntity: try required("destinationEntity", of: element),
            inverseName: element[attribute: "inverseName"], inverseEntity: element[attribute: "inverseEntity"],
            isOptional: flag("optional", of: element), isTransient: flag("transient", of: element), isToMany: isToMany,
            minCount: try integer("minCount", of: element) ?? 0,
            maxCount: isToMany ? (try integer("maxCount", of: element) ?? 0) : 1,
            isOrdered: flag("ordered", of: element), deleteRule: rule,
            isIndexedBySpotlight: flag("spotlightIndexingEnabled", of: element),
            renamingIdentifier: element[attribute: "elementID"], versionHashModifier: element[attribute: "versionHashModifier"],
            userInfo: try userInfo(of: element))
    }

    func fetchedProperty(_ element: XMLElementTree) throws(ModelLoadError) -> FetchedProperty {
        let request = element.children(named: "fetchRequest").first
        return FetchedProperty(
            name: try required("name", of: element), isOptional: flag("optional", of: element),
            fetchEntity: request?[attribute: "entity"], predicateString: request?[attribute: "predicateString"],
            userInfo: try userInfo(of: element))
    }

    func fetchIndex(_ element: XMLElementTree) throws(ModelLoadError) -> FetchIndex {
        FetchIndex(name: try required("name", of: element), elements: try element.children(named: "fetchIndexElement").map {
            item throws(ModelLoadError) in
            let kindName = item[attribute: "type"] ?? "Binary"
            guard let kind = FetchIndex.Element.Kind(rawValue: kindName.filter { $0 != "-" }) else {
                throw .invalidElement(file: file, line: item.line, element: "fetchIndexElement", reason: "unknown index type '\(kindName)'")
            }
            return FetchIndex.Element(property: try required("property", of: item), kind: kind,
                                      isAscending: item[attribute: "order"] != "descending")
        })
    }
}
