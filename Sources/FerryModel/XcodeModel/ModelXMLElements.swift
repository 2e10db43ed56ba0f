import FerryFormats

/// The `contents` XML of one model version as an element tree, spelled as Xcode spells it
/// (coredata-format.md §9); `PropertyXMLElements` spells the properties.
///
/// Seen in the corpus: the `<model>` attributes and their order, entities and each kind of
/// property in `caseInsensitiveCompare` order (`EntityNameOrder`, XCServer's
/// `additionalBuildArgumentsData` before `addMissingDeviceToTeams`), attributes before
/// relationships before fetched properties, fetch indexes and then uniqueness constraints after
/// them, `syncable="YES"` on every entity, and no layout `<elements>` (Xcode 14 on). Inferred: the
/// place of `<userInfo>` (after the fetch indexes), of model-level `<fetchRequest>`s (before the
/// configurations) and of an entity's `versionHashModifier` (before `elementID`).
///
/// Settings the model does not hold (`lastSavedToolsVersion`, `systemVersion`, an entity's
/// `codeGenerationType`) are left out; Xcode adds its own when it saves the file.
enum ModelXMLElements {
    static func model(_ model: ManagedObjectModel) -> XMLElementTree {
        var list = XMLAttributeList()
        list.add("type", "com.apple.IDECoreDataModeler.DataModel")
        list.add("documentVersion", "1.0")
        list.add("minimumToolsVersion", model.xcodeSettings.minimumToolsVersion)
        list.add("sourceLanguage", model.xcodeSettings.sourceLanguage)
        list.flag("usedWithCloudKit", model.xcodeSettings.usedWithCloudKit)
        list.flag("usedWithSwiftData", model.xcodeSettings.usedWithSwiftData)
        list.add("userDefinedModelVersionIdentifier", model.versionIdentifier)
        let entities = model.entities.sorted { EntityNameOrder.precedes($0.name, $1.name) }.map(entity)
        return XMLElementTree(name: "model", attributes: list.attributes, children: entities
            + model.fetchRequests.flatMap(fetchRequest) + model.configurations.map(configuration) + userInfo(model.userInfo))
    }

    static func entity(_ entity: Entity) -> XMLElementTree {
        var list = XMLAttributeList()
        list.add("name", entity.name)
        list.add("representedClassName", entity.representedClassName)
        list.flag("isAbstract", entity.isAbstract)
        list.add("parentEntity", entity.parentName)
        list.add("versionHashModifier", entity.versionHashModifier)
        list.add("elementID", entity.renamingIdentifier)
        list.flag("syncable", true)
        let children = sortedByName(entity.attributes, \.name).map(PropertyXMLElements.attribute)
            + sortedByName(entity.relationships, \.name).map(PropertyXMLElements.relationship)
            + sortedByName(entity.fetchedProperties, \.name).map(PropertyXMLElements.fetchedProperty)
            + entity.fetchIndexes.map(fetchIndex) + userInfo(entity.userInfo) + uniquenessConstraints(entity.uniquenessConstraints)
        return XMLElementTree(name: "entity", attributes: list.attributes, children: children)
    }

    /// `<userInfo>` with one `<entry key value/>` per key in byte order, or nothing when empty.
    static func userInfo(_ info: [String: String]) -> [XMLElementTree] {
        guard !info.isEmpty else { return [] }
        let entries = info.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map { key, value in
            XMLElementTree(name: "entry", attributes: [("key", key), ("value", value)])
        }
        return [XMLElementTree(name: "userInfo", children: entries)]
    }

    private static func sortedByName<Property>(_ properties: [Property], _ name: (Property) -> String) -> [Property] {
        properties.sorted { EntityNameOrder.precedes(name($0), name($1)) }
    }

    /// `<fetchIndex name><fetchIndexElement property type order/></fetchIndex>`. Legacy compound
    /// indexes are fetch indexes in the model (named `compoundIndex`, …) and are written as such.
    /// `type` is `Binary` as seen, `RTree` for R-tree elements (not seen; the loader also reads `R-Tree`).
    private static func fetchIndex(_ index: FetchIndex) -> XMLElementTree {
        XMLElementTree(name: "fetchIndex", attributes: [("name", index.name)], children: index.elements.map { element in
            XMLElementTree(name: "fetchIndexElement", attributes: [
                ("property", element.property), ("type", element.kind.rawValue), ("order", element.isAscending ? "ascending" : "descending"),
            ])
        })
    }

    private static func uniquenessConstraints(_ constraints: [[String]]) -> [XMLElementTree] {
        guard !constraints.isEmpty else { return [] }
        return [XMLElementTree(name: "uniquenessConstraints", children: constraints.map { properties in
            XMLElementTree(name: "uniquenessConstraint", children: properties.map { XMLElementTree(name: "constraint", attributes: [("value", $0)]) })
        })]
    }

    /// A model-level fetch request. One without an entity cannot be written (the loader requires
    /// it) and is listed by `UnwrittenModelParts` instead.
    private static func fetchRequest(_ request: FetchRequestTemplate) -> [XMLElementTree] {
        guard !request.entity.isEmpty else { return [] }
        var list = XMLAttributeList()
        list.add("name", request.name)
        list.add("entity", request.entity)
        list.add("predicateString", request.predicateString)
        return [XMLElementTree(name: "fetchRequest", attributes: list.attributes)]
    }

    private static func configuration(_ configuration: Configuration) -> XMLElementTree {
        XMLElementTree(name: "configuration", attributes: [("name", configuration.name)], children: configuration.entityNames.map {
            XMLElementTree(name: "memberEntity", attributes: [("name", $0)])
        })
    }
}
