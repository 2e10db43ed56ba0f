import FerryModel
import FerryTestSupport
import Testing

/// Corpus files and model comparisons shared by the model-archive tests.
enum ModelArchiveCorpus {
    static let coredata = TestPaths.corpus + "/coredata"

    /// Every compiled `.mom` in the corpus.
    static var moms: [String] { TestPaths.files(under: coredata) { $0.hasSuffix(".mom") } }

    /// The XML `contents` of the same version as a `.mom`: `<B>.momd/<V>.mom` ↔ `<B>.xcdatamodeld/<V>.xcdatamodel`
    /// in the same repository folder.
    static func xmlCounterpart(of mom: String) -> String? {
        let parts = mom.split(separator: "/").map(String.init)
        guard let bundle = parts.dropLast().last, bundle.hasSuffix(".momd"), let file = parts.last,
              let repository = parts.firstIndex(where: { $0.contains("__") }) else { return nil }
        let suffix = String(bundle.dropLast(5)) + ".xcdatamodeld/" + String(file.dropLast(4)) + ".xcdatamodel/contents"
        let folder = coredata + "/" + parts[repository]
        return TestPaths.files(under: folder) { $0.hasSuffix("/" + suffix) }.first
    }

    /// A model with the fields an archive never carries cleared, and properties in byte order of
    /// their names (an archive's dictionaries have no order; the decoder sorts) (modelcache-format.md §4.4: "Never
    /// archived"): `usesScalarValueType`, and `customClassName` (Xcode does not archive it even for
    /// Transformable attributes; for other types the archive holds the class the type implies).
    static func withoutUnarchivedFields(_ model: ManagedObjectModel, keepTransformableClass: Bool = false) -> ManagedObjectModel {
        ManagedObjectModel(
            name: model.name, versionIdentifier: model.versionIdentifier,
            entities: model.entities.map { entity in
                var copy = entity
                copy.relationships = entity.relationships.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                copy.fetchedProperties = entity.fetchedProperties.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
                copy.attributes = entity.attributes.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.map { attribute in
                    var trimmed = attribute
                    trimmed.usesScalarValueType = nil
                    if !(keepTransformableClass && attribute.type == .transformable) { trimmed.customClassName = nil }
                    return trimmed
                }
                return copy
            },
            configurations: model.configurations.map { Configuration(name: $0.name, entityNames: $0.entityNames.sorted()) },
            fetchRequests: model.fetchRequests, userInfo: model.userInfo, inheritedPropertyForm: model.inheritedPropertyForm)
    }

    /// Compares two models entity by entity and property by property, so that a failure names the
    /// exact entity and field.
    static func expectEqual(_ decoded: ManagedObjectModel, _ expected: ManagedObjectModel, _ context: String,
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(decoded.entities.map(\.name) == expected.entities.map(\.name), "\(context): entity names", sourceLocation: sourceLocation)
        #expect(decoded.versionIdentifier == expected.versionIdentifier, "\(context): version identifier", sourceLocation: sourceLocation)
        #expect(decoded.configurations == expected.configurations, "\(context): configurations", sourceLocation: sourceLocation)
        #expect(decoded.fetchRequests == expected.fetchRequests, "\(context): fetch requests", sourceLocation: sourceLocation)
        for entity in expected.entities {
            guard let other = decoded.entity(named: entity.name) else { continue }
            let here = "\(context): \(entity.name)"
            #expect(other.representedClassName == entity.representedClassName, "\(here) class name", sourceLocation: sourceLocation)
            #expect(other.parentName == entity.parentName, "\(here) parent", sourceLocation: sourceLocation)
            #expect(other.isAbstract == entity.isAbstract, "\(here) abstract", sourceLocation: sourceLocation)
            #expect(other.renamingIdentifier == entity.renamingIdentifier, "\(here) renaming identifier", sourceLocation: sourceLocation)
            #expect(other.versionHashModifier == entity.versionHashModifier, "\(here) versionHashModifier", sourceLocation: sourceLocation)
            #expect(other.uniquenessConstraints == entity.uniquenessConstraints, "\(here) constraints", sourceLocation: sourceLocation)
            #expect(other.fetchIndexes == entity.fetchIndexes, "\(here) fetch indexes", sourceLocation: sourceLocation)
            #expect(other.userInfo == entity.userInfo, "\(here) userInfo", sourceLocation: sourceLocation)
            #expect(other.attributes.map(\.name) == entity.attributes.map(\.name), "\(here) attribute names", sourceLocation: sourceLocation)
            for attribute in entity.attributes {
                let found = other.attribute(named: attribute.name)
                #expect(found == attribute, "\(here).\(attribute.name): \(String(describing: found)) != \(attribute)", sourceLocation: sourceLocation)
            }
            #expect(other.relationships.map(\.name) == entity.relationships.map(\.name), "\(here) relationship names", sourceLocation: sourceLocation)
            for relationship in entity.relationships {
                let found = other.relationship(named: relationship.name)
                #expect(found == relationship, "\(here).\(relationship.name): \(String(describing: found)) != \(relationship)", sourceLocation: sourceLocation)
            }
            #expect(other.fetchedProperties == entity.fetchedProperties, "\(here) fetched properties", sourceLocation: sourceLocation)
        }
    }

    /// Compares the version hashes of two models entity by entity.
    static func expectEqualHashes(_ decoded: ManagedObjectModel, _ expected: ManagedObjectModel, _ context: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let left = VersionHasher.hashes(of: decoded), right = VersionHasher.hashes(of: expected)
        #expect(left.differingEntities(from: right.entityHashes) == [], "\(context): entity hashes", sourceLocation: sourceLocation)
        #expect(left.checksum == right.checksum, "\(context): checksum", sourceLocation: sourceLocation)
    }
}
