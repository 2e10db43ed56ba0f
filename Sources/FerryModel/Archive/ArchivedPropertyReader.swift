/// Decodes the property objects of one entity: attributes (plain and derived), relationships and
/// fetched properties (modelcache-format.md §4.3–4.7).
struct ArchivedPropertyReader {
    let archive: KeyedArchive
    let entityNames: [Int: String]
    let reader: ArchivedModelReader

    /// The flags common to all properties: `_P` when present and marked valid, else the boolean keys.
    struct CommonFlags {
        var isOptional: Bool
        var isReadOnly: Bool
        var isTransient: Bool
        var isOrdered: Bool
        var isIndexedBySpotlight: Bool
    }

    func flags(_ property: ArchivedObject) throws -> CommonFlags {
        if let word = try property.integer("_P"), PropertyFlags(rawValue: word).contains(.present) {
            let bits = PropertyFlags(rawValue: word)
            return CommonFlags(isOptional: bits.contains(.optional), isReadOnly: bits.contains(.readOnly),
                               isTransient: bits.contains(.transient), isOrdered: bits.contains(.ordered),
                               isIndexedBySpotlight: bits.contains(.indexedBySpotlight))
        }
        return CommonFlags(isOptional: try property.flag("NSIsOptional"), isReadOnly: try property.flag("NSIsReadOnly"),
                           isTransient: try property.flag("NSIsTransient"), isOrdered: try property.flag("NSIsOrdered"),
                           isIndexedBySpotlight: try property.flag("NSIndexedBySpotlight"))
    }

    /// `NSValidationPredicates` paired with `NSValidationWarnings`, which must be as many. A warning is
    /// a message or a Cocoa error code. A rule whose predicate has parts `ArchivedPredicateFormat`
    /// cannot print is left out, as unknown classes must not fail a decode.
    private func validationRules(_ property: ArchivedObject) throws -> [ValidationRule] {
        let predicates = try property.elements("NSValidationPredicates")
        let warnings = try property.elements("NSValidationWarnings")
        guard predicates.count == warnings.count else {
            throw ModelArchiveError.invalid(reason: "\(predicates.count) validation predicates but \(warnings.count) warnings",
                                            keyPath: property.path("NSValidationWarnings"))
        }
        var rules: [ValidationRule] = []
        for (offset, (predicate, warning)) in zip(predicates, warnings).enumerated() {
            let warningPath = property.path("NSValidationWarnings") + "[\(offset)]"
            let message: ValidationRule.Warning
            let value = try archive.value(at: warning, keyPath: warningPath)
            if case .string(let text) = value {
                message = .message(text)
            } else if case .integer(let code) = value, let number = Int(exactly: code) {
                message = .code(number)
            } else {
                throw ModelArchiveError.invalid(reason: "a validation warning is neither a string nor a number", keyPath: warningPath)
            }
            let keyPath = property.path("NSValidationPredicates") + "[\(offset)]"
            guard let text = try ArchivedPredicateFormat(archive: archive).text(at: predicate, keyPath: keyPath) else { continue }
            rules.append(ValidationRule(predicate: text, warning: message))
        }
        return rules
    }

    /// The renaming identifier, nil when it is the name itself (as the XML has no `elementID` then).
    private func renamingIdentifier(_ property: ArchivedObject, name: String) throws -> String? {
        try property.string("NSRenamingIdentifier").flatMap { $0 == name ? nil : $0 }
    }

    func attribute(_ property: ArchivedObject, name: String) throws -> Attribute {
        let code = try property.integer("NSAttributeType") ?? 0
        guard let type = AttributeType(rawValue: code) else {
            throw ModelArchiveError.invalid(reason: "attribute '\(name)' has the unknown NSAttributeType \(code)",
                                            keyPath: property.path("NSAttributeType"))
        }
        let common = try flags(property)
        if let reason = type.unsupportedReason, !common.isTransient {
            throw ModelArchiveError.invalid(reason: "attribute '\(name)' \(reason)", keyPath: property.path("NSAttributeType"))
        }
        let bits = try property.integer("NSFlagsKey") ?? 0
        let defaultValue = try archive.value(of: property, key: "NSDefaultValue")
        var attribute = Attribute(
            name: name, type: type, isOptional: common.isOptional, isTransient: common.isTransient, isReadOnly: common.isReadOnly,
            allowsExternalBinaryDataStorage: bits & AttributeFlags.externalStorage != 0,
            preserveAfterDeletion: bits & AttributeFlags.preserveAfterDeletion != 0,
            valueTransformerName: try property.string("NSValueTransformerName"),
            customClassName: type == .transformable ? try property.string("NSAttributeValueClassName") : nil,
            isIndexed: try property.flag("NSIsIndexed"), isIndexedBySpotlight: common.isIndexedBySpotlight,
            renamingIdentifier: try renamingIdentifier(property, name: name),
            versionHashModifier: try property.string("NSVersionHashModifier"),
            userInfo: try reader.userInfo(property, key: "NSUserInfo"), validationRules: try validationRules(property))
        if case .date(let seconds) = defaultValue, type == .date {
            attribute.defaultDateTimeInterval = seconds
        } else {
            attribute.defaultValueString = ArchivedDefaultValue.text(of: defaultValue, type: type)
        }
        if bits & AttributeFlags.hasMinimum != 0 { attribute.minValueString = try bound(property, "NSMinValueName", type: type) }
        if bits & AttributeFlags.hasMaximum != 0 { attribute.maxValueString = try bound(property, "NSMaxValueName", type: type) }
        if property.className == "NSDerivedAttributeDescription" {
            attribute.isDerived = true
            let format = ArchivedPredicateFormat(archive: archive)
            if let expression = try property.reference("NSDerivationExpression") {
                attribute.derivationExpression = try format.text(at: expression, keyPath: property.path("NSDerivationExpression"))
            }
            if let filter = try property.reference("NSFilteringPredicate") {
                attribute.filteringPredicate = try format.text(at: filter, keyPath: property.path("NSFilteringPredicate"))
            }
        }
        return attribute
    }

    /// A min/max bound: inline int64 for integer and string types, inline double otherwise.
    private func bound(_ property: ArchivedObject, _ key: String, type: AttributeType) throws -> String? {
        if type.isInteger || type == .string { return try property.integer(key).map { String($0) } }
        return try property.real(key).map { ArchivedDefaultValue.text(of: $0) }
    }

    func relationship(_ property: ArchivedObject, name: String) throws -> Relationship {
        let common = try flags(property)
        let destination: String
        if let named = try property.string("_NSDestinationEntityName") {
            destination = named
        } else if let target = try property.reference("NSDestinationEntity") {
            destination = try reader.entityName(target, entityNames, keyPath: property.path("NSDestinationEntity"))
        } else {
            throw ModelArchiveError.invalid(reason: "relationship '\(name)' has no destination", keyPath: property.keyPath)
        }
        guard entityNames.values.contains(destination) else {
            throw ModelArchiveError.invalid(reason: "relationship '\(name)' points at the unknown entity '\(destination)'",
                                            keyPath: property.keyPath)
        }
        var inverse = try property.string("_NSInverseRelationshipName")
        if inverse == nil, let inverseObject = try property.object("NSInverseRelationship") {
            inverse = try inverseObject.string("NSPropertyName")
        }
        let ruleCode = try property.integer("NSDeleteRule") ?? DeleteRule.nullify.code
        guard let rule = DeleteRule(code: ruleCode) else {
            throw ModelArchiveError.invalid(reason: "relationship '\(name)' has the unknown NSDeleteRule \(ruleCode)",
                                            keyPath: property.path("NSDeleteRule"))
        }
        let maxCount = try property.integer("NSMaxCount") ?? 1
        let isOrdered = try common.isOrdered || property.flag("NSIsOrdered")
        return Relationship(
            name: name, destinationEntity: destination, inverseName: inverse, inverseEntity: inverse == nil ? nil : destination,
            isOptional: common.isOptional, isTransient: common.isTransient, isToMany: maxCount != 1,
            minCount: try property.integer("NSMinCount") ?? 0, maxCount: maxCount,
            isOrdered: isOrdered, deleteRule: rule, isIndexedBySpotlight: common.isIndexedBySpotlight,
            renamingIdentifier: try renamingIdentifier(property, name: name),
            versionHashModifier: try property.string("NSVersionHashModifier"),
            userInfo: try reader.userInfo(property, key: "NSUserInfo"), validationRules: try validationRules(property))
    }

    func fetchedProperty(_ property: ArchivedObject, name: String) throws -> FetchedProperty {
        let request = try property.object("NSFetchRequest")
        var entity = try property.string("_NSFetchRequestEntityName")
        if entity == nil, let request, let target = try request.reference("NSEntity") {
            entity = try reader.entityName(target, entityNames, keyPath: request.path("NSEntity"))
        }
        return FetchedProperty(
            name: name, isOptional: try flags(property).isOptional, fetchEntity: entity,
            predicateString: try request.flatMap { request throws in try reader.predicate(of: request) },
            userInfo: try reader.userInfo(property, key: "NSUserInfo"))
    }
}
