import FerryFormats

/// The `<attribute>`, `<relationship>` and `<fetchedProperty>` elements of a model file, with their
/// XML attributes in the order Xcode writes them (coredata-format.md §9).
///
/// Seen in the corpus or in Xcode-written files: `name optional transient attributeType
/// minValueString maxValueString defaultValueString … usesScalarValueType preserveAfterDeletion
/// indexed … elementID`, `allowsExternalBinaryDataStorage`, `valueTransformerName customClassName`
/// and `derived derivationExpression` right after the type and values; and `name optional
/// transient toMany minCount maxCount deletionRule ordered destinationEntity inverseName
/// inverseEntity spotlightIndexingEnabled`. Inferred: `spotlightIndexingEnabled` after `indexed`,
/// `versionHashModifier` before `elementID`. Attributes carry no `syncable` (Xcode 9 on).
enum PropertyXMLElements {
    static func attribute(_ attribute: Attribute) -> XMLElementTree {
        let isDate = attribute.type == .date
        var list = XMLAttributeList()
        list.add("name", attribute.name)
        list.flag("optional", attribute.isOptional)
        list.flag("transient", attribute.isTransient)
        list.add("attributeType", attribute.type.xcodeName)
        // Dates spell their bounds as seconds since 2001 under their own names; a number's bounds
        // may be validation rules in a model from an archive.
        let bounds = ValidationRuleBounds(attribute)
        list.add(isDate ? "minDateTimeInterval" : "minValueString", bounds.minValueString)
        list.add(isDate ? "maxDateTimeInterval" : "maxValueString", bounds.maxValueString)
        list.add("regularExpressionString", bounds.regularExpressionString)
        list.add("defaultDateTimeInterval", attribute.defaultDateTimeInterval.map(secondsText))
        list.add("defaultValueString", attribute.defaultValueString)
        list.flag("allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
        list.flag("derived", attribute.isDerived)
        list.add("derivationExpression", attribute.derivationExpression.map(DerivationExpression.keyPathSpelling))
        list.add("valueTransformerName", attribute.valueTransformerName)
        list.add("customClassName", attribute.customClassName)
        list.add("usesScalarValueType", attribute.usesScalarValueType.map { $0 ? "YES" : "NO" })
        list.flag("preserveAfterDeletion", attribute.preserveAfterDeletion)
        list.flag("indexed", attribute.isIndexed)
        list.flag("spotlightIndexingEnabled", attribute.isIndexedBySpotlight)
        list.add("versionHashModifier", attribute.versionHashModifier)
        list.add("elementID", attribute.renamingIdentifier)
        return XMLElementTree(name: "attribute", attributes: list.attributes, children: ModelXMLElements.userInfo(attribute.userInfo))
    }

    /// A to-one is written with `maxCount="1"` as Xcode does, a to-many with `toMany="YES"` and its
    /// `maxCount` only when bounded (0 is unbounded).
    static func relationship(_ relationship: Relationship) -> XMLElementTree {
        var list = XMLAttributeList()
        list.add("name", relationship.name)
        list.flag("optional", relationship.isOptional)
        list.flag("transient", relationship.isTransient)
        list.flag("toMany", relationship.isToMany)
        list.add("minCount", relationship.minCount == 0 ? nil : String(relationship.minCount))
        list.add("maxCount", relationship.isToMany ? (relationship.maxCount == 0 ? nil : String(relationship.maxCount)) : "1")
        list.add("deletionRule", relationship.deleteRule.rawValue)
        list.flag("ordered", relationship.isOrdered)
        list.add("destinationEntity", relationship.destinationEntity)
        list.add("inverseName", relationship.inverseName)
        list.add("inverseEntity", relationship.inverseEntity)
        list.flag("spotlightIndexingEnabled", relationship.isIndexedBySpotlight)
        list.add("versionHashModifier", relationship.versionHashModifier)
        list.add("elementID", relationship.renamingIdentifier)
        return XMLElementTree(name: "relationship", attributes: list.attributes, children: ModelXMLElements.userInfo(relationship.userInfo))
    }

    /// `<fetchedProperty name optional><fetchRequest name="fetchedPropertyFetchRequest" entity
    /// predicateString/></fetchedProperty>`, as in the corpus.
    static func fetchedProperty(_ property: FetchedProperty) -> XMLElementTree {
        var list = XMLAttributeList()
        list.add("name", property.name)
        list.flag("optional", property.isOptional)
        var request = XMLAttributeList()
        request.add("name", "fetchedPropertyFetchRequest")
        request.add("entity", property.fetchEntity)
        request.add("predicateString", property.predicateString)
        return XMLElementTree(name: "fetchedProperty", attributes: list.attributes, children:
            [XMLElementTree(name: "fetchRequest", attributes: request.attributes)] + ModelXMLElements.userInfo(property.userInfo))
    }

    /// Seconds as the shortest decimal that reads back as the same number, without an exponent
    /// or a trailing `.0` (`362848762.79173`, `0`).
    private static func secondsText(_ seconds: Double) -> String {
        let shortest = "\(seconds)"
        return DecimalNotation.plain(Array(shortest.utf8)) ?? shortest
    }
}
