import FerryModel

/// Makes a starter model from what records hold (an `EntityProfile`): one entity for the records,
/// one per relationship key, attributes typed by `AttributeTypeChoice`, optional where a record
/// lacks a value, a uniqueness constraint where values were unique and never blank, and a report
/// of every guess.
///
/// Keys become properties by `ModelNaming`; a key spelled otherwise than its property is the
/// property's renaming identifier, so `ferry import` matches it. A key of nested objects (or
/// arrays of them) becomes a relationship to an entity made from those objects, with a to-one
/// inverse; a key of arrays of values becomes an ordered to-many relationship to an entity of one
/// attribute, `value`, with a to-one inverse and no uniqueness constraint, so that import makes
/// one destination per element (`RelationshipKeys.valueHolder`), in order, repeats kept: the
/// store gives each array back as it was. Arrays of objects are ordered too.
/// Keys no import could read into the model (arrays of arrays, objects beside values, values no
/// type holds) are left out and reported; import ignores them as unknown keys.
public enum ModelInference {
    /// The attribute of an entity made for a relationship's values.
    public static let valueAttribute = "value"
    /// How deep nested objects go, as import reads them (`DocumentRecordDecoder.maxDepth`).
    public static let maxDepth = 8

    /// The model version `version`, whose entity `entity` holds the records of `profile`.
    public static func model(version: String, entity: String, from profile: EntityProfile) -> (ManagedObjectModel, InferenceReport) {
        var builder = Builder(epoch: profile.coercion.numericDateEpoch, taken: [entity])
        _ = builder.add(profile, as: entity, origin: nil, back: nil)
        return (ManagedObjectModel(name: version, entities: builder.entities), InferenceReport(entities: builder.reports))
    }
}

/// The way back from an entity made for a relationship to the entity that holds it.
private struct Carrier {
    let entity: String
    let relationship: String
}

private struct Builder {
    let epoch: CoercionOptions.NumericDateEpoch
    /// Entity names given so far.
    var taken: Set<String>
    var entities: [Entity] = []
    var reports: [InferredEntity] = []

    /// Adds the entity `name` made from `profile` (and the entities of its relationships) and
    /// returns the name of its relationship back to `back`'s entity.
    mutating func add(_ profile: EntityProfile, as name: String, origin: String?, back: Carrier?) -> String? {
        let slot = entities.count
        entities.append(Entity(name: name))
        reports.append(InferredEntity(name: name, origin: origin, records: profile.records))
        var entity = Entity(name: name)
        var report = InferredEntity(name: name, origin: origin, records: profile.records)
        var names = Set<String>()
        // A key that is a property name as it stands keeps it; one made into a name (`File Name`
        // → `fileName`) gives way to it, as import matches a key by name before by identifier.
        let ownNames = Set(profile.keys.map(\.key).filter { ModelNaming.propertyName(forKey: $0) == $0 })
        var keysSeen = [String: String]()
        var uniqueCandidates: [InferredAttribute] = []
        for key in profile.keys {
            if let earlier = keysSeen[key.key.lowercased()] {
                // Import reads both into one property, and refuses only a record holding both.
                report.leftOut.append((key.key, "differs from the key '\(earlier)' only in case: import reads both into one property "
                    + "(a record holding both is refused)"))
                continue
            }
            keysSeen[key.key.lowercased()] = key.key
            guard !key.key.isEmpty else {
                report.leftOut.append((key.key, "a column without a name (map it with --map '#N=ATTRIBUTE' on import)"))
                continue
            }
            guard ModelNaming.isKeepable(key.key) else {
                report.leftOut.append((key.key, "holds control characters, which Xcode's XML cannot keep as the key of a property"))
                continue
            }
            let made = ModelNaming.propertyName(forKey: key.key)
            let property = made == key.key && !names.contains(made) ? made : ModelNaming.unused(made, in: names.union(ownNames))
            let renaming = property.lowercased() == key.key.lowercased() ? nil : key.key
            let missing = profile.records - key.present
            if key.unreadableArrays > 0 {
                report.leftOut.append((key.key, "\(key.unreadableArrays) arrays hold arrays, or objects beside values: import reads neither"))
            } else if key.archiveReferences > 0 {
                report.leftOut.append((key.key, "\(key.archiveReferences) values are a keyed archive's object references (UIDs): no attribute holds one"))
            } else if let objects = key.objects {
                guard key.scalars.values + key.scalars.emptyFields + key.elements.values == 0 else {
                    report.leftOut.append((key.key, "objects in some records, values in others"))
                    continue
                }
                guard profile.depth < ModelInference.maxDepth else {
                    report.leftOut.append((key.key, "objects nested more than \(ModelInference.maxDepth) levels deep"))
                    continue
                }
                let destination = claimEntityName(ModelNaming.entityName(forKey: key.key))
                let inverse = add(objects, as: destination, origin: "\(name).\(property)", back: Carrier(entity: name, relationship: property)) ?? ""
                entity.relationships.append(Relationship(name: property, destinationEntity: destination, inverseName: inverse,
                                                         inverseEntity: destination, isToMany: key.arrays > 0, isOrdered: key.arrays > 0,
                                                         renamingIdentifier: renaming))
                report.relationships.append(InferredRelationship(key: key.key, name: property, destination: destination, isToMany: key.arrays > 0,
                                                                 inverse: inverse, values: objects.records,
                                                                 basis: key.arrays > 0 ? "nested objects, in order" : "nested objects"))
            } else if key.arrays > 0 {
                var values = key.scalars
                values.merge(key.elements)
                guard values.values > 0 else {
                    report.leftOut.append((key.key, "only empty arrays: nothing says what they hold"))
                    continue
                }
                guard let choice = AttributeTypeChoice(values, key: key.key, epoch: epoch) else {
                    report.leftOut.append((key.key, "no attribute type holds every value (the last type ended at \(values.lastRuledOut ?? "a value"))"))
                    continue
                }
                let destination = claimEntityName(ModelNaming.entityName(forKey: key.key))
                let inverse = ModelNaming.unused(ModelNaming.lowerFirst(name), in: [ModelInference.valueAttribute])
                addValueEntity(destination, choice: choice, values: values.values, origin: "\(name).\(property)",
                               back: Relationship(name: inverse, destinationEntity: name, inverseName: property, inverseEntity: name))
                entity.relationships.append(Relationship(name: property, destinationEntity: destination, inverseName: inverse,
                                                         inverseEntity: destination, isToMany: true, isOrdered: true, renamingIdentifier: renaming))
                report.relationships.append(InferredRelationship(
                    key: key.key, name: property, destination: destination, isToMany: true, inverse: inverse, values: values.values,
                    basis: "values in order, one \(destination) each (repeats kept)"))
            } else {
                guard let choice = AttributeTypeChoice(key.scalars, key: key.key, epoch: epoch) else {
                    report.leftOut.append((key.key, "no attribute type holds every value (the last type ended at \(key.scalars.lastRuledOut ?? "a value"))"))
                    continue
                }
                let empties = choice.type == .string ? 0 : key.scalars.emptyFields
                let guess = InferredAttribute(key: key.key, name: property, type: choice.type, basis: choice.basis,
                                              values: key.scalars.values + key.scalars.emptyFields - empties, missing: missing + empties,
                                              note: Self.epochNote(key.scalars, key: key.key, chosen: choice.type, epoch: epoch))
                entity.attributes.append(Attribute(name: property, type: choice.type, isOptional: guess.isOptional, renamingIdentifier: renaming))
                report.attributes.append(guess)
                switch key.distinct.state {
                case .unique where Self.canIdentify(guess) && profile.records >= 2: uniqueCandidates.append(guess)
                case .gaveUp(let after): report.uniquenessNotChecked.append((property, after))
                default: break
                }
            }
            names.insert(property)
        }
        if let best = uniqueCandidates.min(by: { Self.identityRank($0) < Self.identityRank($1) }) {
            entity.uniquenessConstraints = [[best.name]]
            report.uniqueAttribute = best.name
            report.alsoUnique = uniqueCandidates.map(\.name).filter { $0 != best.name }
        }
        var inverse: String?
        if let back {
            let name = ModelNaming.unused(ModelNaming.lowerFirst(back.entity), in: names)
            entity.relationships.append(Relationship(name: name, destinationEntity: back.entity, inverseName: back.relationship,
                                                     inverseEntity: back.entity))
            inverse = name
        }
        entities[slot] = entity
        reports[slot] = report
        return inverse
    }

    /// An entity of one attribute, `value`, for the elements of arrays: one object per element,
    /// belonging to its record (a to-one `back`), so values repeat as the arrays repeat them.
    private mutating func addValueEntity(_ name: String, choice: AttributeTypeChoice, values: Int, origin: String, back: Relationship) {
        let attribute = ModelInference.valueAttribute
        entities.append(Entity(name: name, attributes: [Attribute(name: attribute, type: choice.type, isOptional: false)],
                               relationships: [back]))
        var report = InferredEntity(name: name, origin: origin, records: values)
        report.attributes = [InferredAttribute(key: attribute, name: attribute, type: choice.type, basis: choice.basis, values: values, missing: 0)]
        report.relationships = [InferredRelationship(key: back.name, name: back.name, destination: back.destinationEntity, isToMany: false,
                                                     inverse: back.inverseName ?? "", values: values, basis: "inverse")]
        reports.append(report)
    }

    private mutating func claimEntityName(_ wanted: String) -> String {
        let name = ModelNaming.unused(wanted, in: taken)
        taken.insert(name)
        return name
    }

    /// Types whose values a uniqueness constraint is suggested for: text, UUIDs, URIs, integers.
    private static func canIdentify(_ attribute: InferredAttribute) -> Bool {
        !attribute.isOptional && [.string, .uuid, .uri, .integer16, .integer32, .integer64].contains(attribute.type)
    }

    /// Which unique attribute to constrain first: one named like an identifier, then a UUID,
    /// then an integer, then text (earlier keys first among equals).
    private static func identityRank(_ attribute: InferredAttribute) -> Int {
        let lower = attribute.name.lowercased()
        if lower == "id" || lower.hasSuffix("id") || lower.hasSuffix("uuid") || lower.hasSuffix("key") { return 0 }
        switch attribute.type {
        case .uuid: return 1
        case .integer16, .integer32, .integer64: return 2
        default: return 3
        }
    }

    /// For numbers a name calls a time that were not read as a Date: the epoch they would be on.
    private static func epochNote(_ evidence: ValueEvidence, key: String, chosen: AttributeType,
                                  epoch: CoercionOptions.NumericDateEpoch) -> String? {
        guard chosen != .date, evidence.numbers == evidence.values, let range = evidence.numberRange,
              AttributeTypeChoice.namesATime(key) else { return nil }
        for other in CoercionOptions.NumericDateEpoch.allCases where other != epoch {
            if let basis = AttributeTypeChoice.epochBasis(range, epoch: other) {
                return "could be a Date in \(basis): infer and import with --date-epoch \(other.rawValue)"
            }
        }
        return nil
    }
}
