import FerryFormats

/// Property objects (modelcache-format.md §4.3–4.7). Each entity lists its own copy of every
/// property, `NSEntity` pointing at the listing entity; cross-references point at the declaring
/// entity's object.
extension ArchivedModelWriter {
    /// The keys common to all properties, with the `_P` word and its duplicate boolean keys.
    private mutating func commonFields(name: String, listedBy entity: UInt64, isOptional: Bool, isReadOnly: Bool,
                                       isTransient: Bool, isOrdered: Bool, isIndexedBySpotlight: Bool,
                                       renamingIdentifier: String, versionHashModifier: String?,
                                       userInfo: [String: String], validationRules: [ValidationRule],
                                       path: String) throws(ModelArchiveError) -> [String: PropertyListValue] {
        var word: PropertyFlags = [.present]
        var fields: [String: PropertyListValue] = [
            "NSPropertyName": builder.string(name), "NSEntity": .uid(entity),
            "NSRenamingIdentifier": builder.string(renamingIdentifier),
        ]
        let flags: [(Bool, PropertyFlags, String)] = [
            (isOptional, .optional, "NSIsOptional"), (isReadOnly, .readOnly, "NSIsReadOnly"),
            (isTransient, .transient, "NSIsTransient"), (isOrdered, .ordered, "NSIsOrdered"),
            (isIndexedBySpotlight, .indexedBySpotlight, "NSIndexedBySpotlight"),
        ]
        for (isSet, bit, key) in flags where isSet {
            word.insert(bit)
            fields[key] = .bool(true)
        }
        if validationRules.isEmpty { word.formUnion([.noValidationPredicates, .noValidationWarnings]) } else {
            try writeValidationRules(validationRules, into: &fields, path: path)
        }
        if userInfo.isEmpty { word.insert(.noUserInfo) } else { fields["NSUserInfo"] = builder.stringDictionary(userInfo) }
        if let versionHashModifier { fields["NSVersionHashModifier"] = builder.string(versionHashModifier) } else {
            word.insert(.noVersionHashModifier)
        }
        fields["_P"] = .integer(Int128(word.rawValue))
        return fields
    }

    /// `NSValidationPredicates` and `NSValidationWarnings`, pairwise: each warning a string or a number.
    private mutating func writeValidationRules(_ rules: [ValidationRule], into fields: inout [String: PropertyListValue],
                                               path: String) throws(ModelArchiveError) {
        var predicates: [PropertyListValue] = [], warnings: [PropertyListValue] = []
        for rule in rules {
            predicates.append(try PredicateFormatWriter.predicate(rule.predicate, into: &builder, path: path + " validation"))
            switch rule.warning {
            case .message(let text): warnings.append(builder.string(text))
            case .code(let code): warnings.append(builder.scalar(.integer(Int128(code))))
            }
        }
        fields["NSValidationPredicates"] = builder.collection(predicates)
        fields["NSValidationWarnings"] = builder.collection(warnings)
    }

    mutating func writeAttribute(_ attribute: Attribute, of declaring: Entity, into uid: UInt64,
                                 listedBy entity: UInt64) throws(ModelArchiveError) {
        let path = "\(declaring.name).\(attribute.name)"
        var fields = try commonFields(
            name: attribute.name, listedBy: entity, isOptional: attribute.isOptional, isReadOnly: attribute.isReadOnly,
            isTransient: attribute.isTransient, isOrdered: false, isIndexedBySpotlight: attribute.isIndexedBySpotlight,
            renamingIdentifier: attribute.effectiveRenamingIdentifier, versionHashModifier: attribute.versionHashModifier,
            userInfo: attribute.userInfo, validationRules: attribute.validationRules, path: path)
        fields["NSAttributeType"] = .integer(Int128(attribute.type.rawValue))
        fields["NSAttributeValueClassName"] = builder.string(valueClassName(attribute))
        fields["NSValueTransformerName"] = builder.string(attribute.valueTransformerName)
        fields["NSDefaultValue"] = try defaultValue(attribute, path: path)
        var bits = 0
        if attribute.allowsExternalBinaryDataStorage { bits |= AttributeFlags.externalStorage }
        if attribute.preserveAfterDeletion { bits |= AttributeFlags.preserveAfterDeletion }
        if let minimum = attribute.minValueString {
            fields["NSMinValueName"] = try bound(minimum, type: attribute.type, path: path + " minimum")
            bits |= AttributeFlags.hasMinimum
        }
        if let maximum = attribute.maxValueString {
            fields["NSMaxValueName"] = try bound(maximum, type: attribute.type, path: path + " maximum")
            bits |= AttributeFlags.hasMaximum
        }
        fields["NSFlagsKey"] = .integer(Int128(bits))
        let coveredByIndex = declaring.fetchIndexes.contains { $0.elements.count == 1 && $0.elements[0].property == attribute.name }
        if attribute.isIndexed || coveredByIndex { fields["NSIsIndexed"] = .bool(true) }
        var className = "NSAttributeDescription"
        if attribute.isDerived {
            className = "NSDerivedAttributeDescription"
            fields["NSDerivationExpression"] = try attribute.derivationExpression.map { text throws(ModelArchiveError) in
                try PredicateFormatWriter.expression(text, into: &builder, path: path)
            } ?? KeyedArchiveBuilder.null
            fields["NSFilteringPredicate"] = try attribute.filteringPredicate.map { text throws(ModelArchiveError) in
                try PredicateFormatWriter.predicate(text, into: &builder, path: path)
            } ?? KeyedArchiveBuilder.null
        }
        builder.fill(uid, className: className, fields: fields)
    }

    /// `NSAttributeValueClassName`: the class the type implies; a Transformable's custom class.
    private func valueClassName(_ attribute: Attribute) -> String? {
        switch attribute.type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean: "NSNumber"
        case .decimal: "NSDecimalNumber"
        case .string: "NSString"
        case .date: "NSDate"
        case .binary: "NSData"
        case .uuid: "NSUUID"
        case .uri: "NSURL"
        case .transformable: attribute.customClassName
        case .undefined, .objectID, .composite: nil
        }
    }

    private mutating func defaultValue(_ attribute: Attribute, path: String) throws(ModelArchiveError) -> PropertyListValue {
        if attribute.type == .date, let seconds = attribute.defaultDateTimeInterval {
            return builder.add("NSDate", ["NS.time": .real(seconds)])
        }
        guard let text = attribute.defaultValueString else { return KeyedArchiveBuilder.null }
        guard let value = ArchivedDefaultValue.value(of: text, type: attribute.type) else {
            throw .unencodable(reason: "default value '\(text)' is not a valid \(attribute.type.xcodeName)", path: path)
        }
        switch value {
        case .integer(let number): return builder.scalar(.integer(Int128(number)))
        case .bool(let flag): return builder.scalar(.bool(flag))
        case .real(let number): return builder.scalar(.real(number))
        case .string(let string): return builder.string(string)
        case .uuid(let bytes): return builder.add("NSUUID", ["NS.uuidbytes": .data(bytes)])
        }
    }

    /// A min/max bound: inline integer for integer and string types, inline real otherwise.
    private func bound(_ text: String, type: AttributeType, path: String) throws(ModelArchiveError) -> PropertyListValue {
        if type.isInteger || type == .string, let number = Int64(text) { return .integer(Int128(number)) }
        if !(type.isInteger || type == .string), let number = Double(text) { return .real(number) }
        throw .unencodable(reason: "bound '\(text)' is not a number", path: path)
    }

    mutating func writeRelationship(_ relationship: Relationship, into uid: UInt64, listedBy entity: UInt64) throws(ModelArchiveError) {
        var fields = try commonFields(
            name: relationship.name, listedBy: entity, isOptional: relationship.isOptional, isReadOnly: false,
            isTransient: relationship.isTransient, isOrdered: relationship.isOrdered,
            isIndexedBySpotlight: relationship.isIndexedBySpotlight, renamingIdentifier: relationship.effectiveRenamingIdentifier,
            versionHashModifier: relationship.versionHashModifier, userInfo: relationship.userInfo,
            validationRules: relationship.validationRules, path: relationship.name)
        let destination = relationship.destinationEntity
        fields["_NSDestinationEntityName"] = builder.string(destination)
        fields["NSDestinationEntity"] = .uid(entityUIDs[destination] ?? 0)
        // Both inverse keys are always written, `$null` when there is no inverse (CartKit stores, fw 1523).
        fields["_NSInverseRelationshipName"] = KeyedArchiveBuilder.null
        fields["NSInverseRelationship"] = KeyedArchiveBuilder.null
        if let inverse = relationship.inverseName {
            guard let owner = declaringEntity(of: inverse, from: destination), let inverseUID = propertyUIDs[owner.name]?[inverse] else {
                throw .unencodable(reason: "inverse '\(inverse)' is not a property of '\(destination)'", path: relationship.name)
            }
            fields["_NSInverseRelationshipName"] = builder.string(inverse)
            fields["NSInverseRelationship"] = .uid(inverseUID)
        }
        fields["NSMinCount"] = .integer(Int128(Int32(truncatingIfNeeded: relationship.minCount)))
        fields["NSMaxCount"] = .integer(Int128(Int32(truncatingIfNeeded: relationship.maxCount)))
        fields["NSDeleteRule"] = .integer(Int128(relationship.deleteRule.code))
        builder.fill(uid, className: "NSRelationshipDescription", fields: fields)
    }

    mutating func writeFetchedProperty(_ fetched: FetchedProperty, into uid: UInt64, listedBy entity: UInt64,
                                       path: String) throws(ModelArchiveError) {
        var fields = try commonFields(
            name: fetched.name, listedBy: entity, isOptional: fetched.isOptional, isReadOnly: true, isTransient: true,
            isOrdered: false, isIndexedBySpotlight: false, renamingIdentifier: fetched.name, versionHashModifier: nil,
            userInfo: fetched.userInfo, validationRules: [], path: path)
        guard let target = fetched.fetchEntity else { throw .unencodable(reason: "fetched property without an entity", path: path) }
        fields["_NSFetchRequestEntityName"] = builder.string(target)
        fields["NSFetchRequest"] = try fetchRequest(entity: target, predicate: fetched.predicateString, path: path)
        builder.fill(uid, className: "NSFetchedPropertyDescription", fields: fields)
    }
}
