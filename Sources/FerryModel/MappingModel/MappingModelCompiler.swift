/// Derives from an `xcmapping.xml` exactly what Apple's mapping compiler (`mapc`) writes into a
/// `.cdm` (coredata-format.md §10.2, checked field by field against the corpus's compiled files):
///
/// 1. Entity mappings in `mappingnumber` order.
/// 2. Name `<Source>To<Destination>`; the destination alone for an add mapping.
/// 3. Type add without a source, custom with a policy class, transform when the names differ,
///    otherwise copy (even when the entity's properties changed).
/// 4. Source expression: a fetch of the exact source entity with the filter predicate (or
///    `TRUEPREDICATE`); nil for an add mapping.
/// 5. Entity version hashes from the two model snapshots.
/// 6. Attribute mappings sorted by name ignoring case; the stored expression, else
///    `$source.<name>` when the source entity has an attribute of that name (inherited ones
///    included), else nil (the destination's default).
/// 7. Relationship mappings in the same order: the stored expression; else, with a source
///    mapping name M, the instances M made from `sourcekeypath` (or `$source.<name>`); else,
///    when the source entity has a relationship of that name, the instances of the one entity
///    mapping whose destination lies in the destination relationship's destination subtree when
///    exactly one does, otherwise the instances every mapping made from the source relationship's
///    objects; else nil.
enum MappingModelCompiler {
    static func compile(_ document: XcodeMappingDocument, path: String) throws(MappingModelLoadError) -> CoreDataMappingModel {
        let source = document.sourceModel, destination = document.destinationModel
        let sourceHashes = VersionHasher.hashes(of: source).entityHashes
        let destinationHashes = VersionHasher.hashes(of: destination).entityHashes
        let named = document.entityMappings.map { (name: name(of: $0), destination: $0.destinationName) }
        var mappings: [CoreDataEntityMapping] = []
        for (editor, names) in zip(document.entityMappings, named) {
            guard destination.entity(named: editor.destinationName) != nil else {
                throw .inconsistent(file: document.file, reason: "entity mapping \(names.name) (line \(editor.line)) makes '\(editor.destinationName)', which the destination model \(destination.name) does not have")
            }
            if let sourceName = editor.sourceName, source.entity(named: sourceName) == nil {
                throw .inconsistent(file: document.file, reason: "entity mapping \(names.name) (line \(editor.line)) reads '\(sourceName)', which the source model \(source.name) does not have")
            }
            let sourceAttributes = Set(editor.sourceName.map { source.allAttributes(of: $0).map(\.name) } ?? [])
            let sourceRelationships = Set(editor.sourceName.map { source.allRelationships(of: $0).map(\.name) } ?? [])
            let attributes = ordered(editor.attributeMappings).map { mapping in
                CoreDataPropertyMapping(name: mapping.name, valueExpression: mapping.valueExpression
                    ?? (sourceAttributes.contains(mapping.name) ? MappingExpressionForm.sourceKeyPath(mapping.name) : nil))
            }
            let relationships = ordered(editor.relationshipMappings).map { mapping in
                CoreDataPropertyMapping(name: mapping.name, valueExpression: mapping.valueExpression
                    ?? relationshipExpression(mapping, destinationEntity: editor.destinationName, sourceHas: sourceRelationships,
                                              destination: destination, mappings: named))
            }
            mappings.append(CoreDataEntityMapping(
                name: names.name, type: type(of: editor), sourceEntityName: editor.sourceName,
                sourceEntityVersionHash: editor.sourceName.flatMap { sourceHashes[$0] },
                destinationEntityName: editor.destinationName, destinationEntityVersionHash: destinationHashes[editor.destinationName],
                sourceExpression: editor.sourceName.map { MappingExpressionForm.sourceFetch(entity: $0, predicate: editor.sourceFilterPredicate ?? "TRUEPREDICATE") },
                migrationPolicyClassName: editor.migrationPolicyClassName,
                attributeMappings: attributes, relationshipMappings: relationships))
        }
        return CoreDataMappingModel(path: path, entityMappings: mappings)
    }

    private static func name(of mapping: XcodeMappingDocument.EntityMapping) -> String {
        mapping.sourceName.map { "\($0)To\(mapping.destinationName)" } ?? mapping.destinationName
    }

    private static func type(of mapping: XcodeMappingDocument.EntityMapping) -> CoreDataEntityMappingType {
        guard let source = mapping.sourceName else { return .add }
        if mapping.migrationPolicyClassName != nil { return .custom }
        return source == mapping.destinationName ? .copy : .transform
    }

    /// By name ignoring case (then by exact name, so that the order never depends on the document's).
    private static func ordered(_ mappings: [XcodeMappingDocument.PropertyMapping]) -> [XcodeMappingDocument.PropertyMapping] {
        mappings.sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
    }

    private static func relationshipExpression(_ mapping: XcodeMappingDocument.PropertyMapping, destinationEntity: String,
                                               sourceHas sourceRelationships: Set<String>, destination: ManagedObjectModel,
                                               mappings: [(name: String, destination: String)]) -> ArchivedExpression? {
        if let mappingName = mapping.sourceMappingName {
            let instances = mapping.sourceKeyPath.map(sourceInstances) ?? MappingExpressionForm.sourceKeyPath(mapping.name)
            return MappingExpressionForm.destinationInstances(.entityMapping(mappingName), sourceInstances: instances)
        }
        guard sourceRelationships.contains(mapping.name) else { return nil }
        let instances = MappingExpressionForm.sourceKeyPath(mapping.name)
        if let target = destination.allRelationships(of: destinationEntity).first(where: { $0.name == mapping.name }) {
            let subtree = Set(destination.hierarchy(below: target.destinationEntity).map(\.name))
            let candidates = mappings.filter { subtree.contains($0.destination) }
            if candidates.count == 1, let only = candidates.first {
                return MappingExpressionForm.destinationInstances(.entityMapping(only.name), sourceInstances: instances)
            }
        }
        return MappingExpressionForm.destinationInstances(.sourceRelationship(mapping.name), sourceInstances: instances)
    }

    /// A `sourcekeypath` as an expression: `$source.a.b`, or a key path relative to `$source`.
    private static func sourceInstances(_ keyPath: String) -> ArchivedExpression {
        MappingExpressionForm.sourceKeyPath(keyPath.hasPrefix("$source.") ? String(keyPath.dropFirst("$source.".count)) : keyPath)
    }
}
