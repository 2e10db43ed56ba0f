import FerryFormats

/// What Xcode's mapping-model editor saves in `xcmapping.xml` (coredata-format.md §10.1), read
/// from the `XDDEVMAPPINGMODEL` root object by references: snapshots of both models, and per
/// entity mapping only what the editor stores (no mapping names, types or derived expressions:
/// `MappingModelCompiler` derives those).
struct XcodeMappingDocument {
    /// One `XDDEVENTITYMAPPING`.
    struct EntityMapping {
        /// Nil for an add mapping.
        var sourceName: String?
        var destinationName: String
        /// `mappingnumber`: the order.
        var number: Int
        var migrationPolicyClassName: String?
        var sourceFilterPredicate: String?
        var attributeMappings: [PropertyMapping]
        var relationshipMappings: [PropertyMapping]
        /// The line of its object, for messages.
        var line: Int
    }

    /// One `XDDEVATTRIBUTEMAPPING` or `XDDEVRELATIONSHIPMAPPING`.
    struct PropertyMapping {
        var name: String
        /// The decoded `valueexpressiondata`, when the editor stored an expression.
        var valueExpression: ArchivedExpression?
        /// `sourcekeypath` of a relationship mapping, as written.
        var sourceKeyPath: String?
        /// `sourcemappingname` of a relationship mapping: the entity mapping its destinations come from.
        var sourceMappingName: String?
    }

    let file: String
    let sourceModel: ManagedObjectModel
    let destinationModel: ManagedObjectModel
    let entityMappings: [EntityMapping]

    init(bytes: [UInt8], file: String) throws(MappingModelLoadError) {
        self.file = file
        let store = try CoreDataXMLStore(bytes: bytes, file: file)
        let root = try store.root(ofType: "XDDEVMAPPINGMODEL")
        sourceModel = try Self.snapshot(root, "source", file: file)
        destinationModel = try Self.snapshot(root, "destination", file: file)
        var mappings: [EntityMapping] = []
        for object in try store.related(root, "entitymappings", type: "XDDEVENTITYMAPPING") {
            guard let destination = object.attributes["destinationname"], !destination.isEmpty else {
                throw .invalidObject(file: file, line: object.line, object: object.id, reason: "an entity mapping without a destinationname")
            }
            guard let number = object.attributes["mappingnumber"].flatMap({ Int($0) }) else {
                throw .invalidObject(file: file, line: object.line, object: object.id, reason: "an entity mapping without a mappingnumber")
            }
            mappings.append(EntityMapping(
                sourceName: object.attributes["sourcename"].flatMap { $0.isEmpty ? nil : $0 }, destinationName: destination,
                number: number, migrationPolicyClassName: object.attributes["migrationpolicyclassname"].flatMap { $0.isEmpty ? nil : $0 },
                sourceFilterPredicate: object.attributes["sourcefilterpredicatestring"].flatMap { $0.isEmpty ? nil : $0 },
                attributeMappings: try Self.properties(store, object, "attributemappings", type: "XDDEVATTRIBUTEMAPPING"),
                relationshipMappings: try Self.properties(store, object, "relationshipmappings", type: "XDDEVRELATIONSHIPMAPPING"),
                line: object.line))
        }
        entityMappings = mappings.enumerated().sorted { ($0.element.number, $0.offset) < ($1.element.number, $1.offset) }.map(\.element)
    }

    /// The model snapshot `<side>modeldata`, named after the version folder of `<side>modelpath`.
    private static func snapshot(_ root: CoreDataXMLStore.Object, _ side: String, file: String) throws(MappingModelLoadError) -> ManagedObjectModel {
        guard let text = root.attributes["\(side)modeldata"], let bytes = PropertyListBase64.decode(text.utf8) else {
            throw .invalidObject(file: file, line: root.line, object: root.id, reason: "\(side)modeldata is missing or not base64")
        }
        let path = root.attributes["\(side)modelpath"] ?? side
        let last = path.split(separator: "/").last.map(String.init) ?? side
        let name = last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : last
        do { return try EditorModelSnapshotDecoder.decode(bytes, name: name) } catch {
            throw .archive(file: file, place: "\(side)modeldata", error)
        }
    }

    private static func properties(_ store: CoreDataXMLStore, _ owner: CoreDataXMLStore.Object, _ relationship: String,
                                   type: String) throws(MappingModelLoadError) -> [PropertyMapping] {
        var result: [PropertyMapping] = []
        for object in try store.related(owner, relationship, type: type) {
            guard let name = object.attributes["name"], !name.isEmpty else {
                throw .invalidObject(file: store.file, line: object.line, object: object.id, reason: "a property mapping without a name")
            }
            var expression: ArchivedExpression?
            if let text = object.attributes["valueexpressiondata"] {
                guard let bytes = PropertyListBase64.decode(text.utf8) else {
                    throw .invalidObject(file: store.file, line: object.line, object: object.id, reason: "valueexpressiondata is not base64")
                }
                do {
                    let archive = try KeyedArchive(bytes: bytes)
                    expression = try ArchivedExpressionReader(archive: archive).expression(at: archive.rootIndex, keyPath: "$top.root")
                } catch let error as KeyedArchiveError {
                    throw .archive(file: store.file, place: "object \(object.id) (\(name)) valueexpressiondata", .archive(error))
                } catch let error as ModelArchiveError {
                    throw .archive(file: store.file, place: "object \(object.id) (\(name)) valueexpressiondata", error)
                } catch {
                    throw .invalidObject(file: store.file, line: object.line, object: object.id, reason: "\(error)")
                }
            }
            result.append(PropertyMapping(name: name, valueExpression: expression,
                                          sourceKeyPath: object.attributes["sourcekeypath"].flatMap { $0.isEmpty ? nil : $0 },
                                          sourceMappingName: object.attributes["sourcemappingname"].flatMap { $0.isEmpty ? nil : $0 }))
        }
        return result
    }
}
