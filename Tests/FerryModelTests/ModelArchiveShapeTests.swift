import FerryFormats
import FerryModel
import Testing

/// The objects the encoder writes, key by key, where Core Data's form is known from store archives.
@Suite("Model archive shape")
struct ModelArchiveShapeTests {
    /// The object an entity lists under a property name in `NSProperties`.
    private func listed(_ property: String, of entity: String, in archive: KeyedArchive) throws -> ArchivedObject {
        let entities = try archive.root().entries("NSEntities")
        let entityIndex = try #require(entities.first { $0.key == entity }?.value)
        let properties = try archive.object(at: entityIndex, keyPath: entity).entries("NSProperties")
        let propertyIndex = try #require(properties.first { $0.key == property }?.value)
        return try archive.object(at: propertyIndex, keyPath: property)
    }

    @Test("a relationship without an inverse writes both inverse keys as $null")
    func relationshipWithoutInverse() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", relationships: [Relationship(name: "bs", destinationEntity: "B", isToMany: true)]),
            Entity(name: "B"),
        ])
        let archive = try KeyedArchive(bytes: ModelArchiveEncoder.encodeModel(model))
        let relationship = try listed("bs", of: "A", in: archive)
        #expect(relationship.fields["_NSInverseRelationshipName"] == .uid(0))
        #expect(relationship.fields["NSInverseRelationship"] == .uid(0))
        let decoded = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model), name: "M")
        #expect(decoded.entity(named: "A")?.relationship(named: "bs")?.inverseName == nil)
    }
}
