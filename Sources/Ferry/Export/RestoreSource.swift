import FerryFormats
import FerryMigration
import FerryModel

/// The records of one export file as `Record`s of its entity, one ahead, for merging by `Z_PK`.
final class RestoreSource {
    let path: String
    let schema: RecordSchema
    let expectedCount: Int
    private(set) var pending: (primaryKey: Int64, record: Record)?
    private let reader: ExportFileReader
    private let links: [Relationship]
    /// The relationships whose pairs the other side carries (a one-to-many's to-one, one side of
    /// a many-to-many), by `Entity.relationship` of the entity that declares them.
    private let otherSides: [(relationship: Relationship, tally: String)]
    /// The pairs each of `otherSides` named (by its tally name): what the side restore reads
    /// must give back.
    private(set) var namedPairs: [String: Int] = [:]
    /// The keys an export writes for the entity (`EntityExportLayout.columnNames`): a record
    /// holding another would lose its value without a word.
    private let knownKeys: Set<String>
    private var line = 0

    /// The records of `file`, the file of `entry` as the folder's check opened it.
    init(_ file: FileByteSource, entry: ExportManifest.EntityFile, format: ExportFormat, model: ManagedObjectModel) throws(ExportError) {
        path = file.name
        guard let schema = RecordSchema(model: model, entityName: entry.entity) else {
            throw .model(reason: "the model has no entity \(entry.entity)")
        }
        self.schema = schema
        expectedCount = entry.count
        links = model.allRelationships(of: entry.entity).filter { RelationshipSide.restoresLinks($0, of: entry.entity, model: model) }
        otherSides = model.allRelationships(of: entry.entity).filter { relationship in
            !relationship.isTransient && !RelationshipSide.restoresLinks(relationship, of: entry.entity, model: model)
        }.map { relationship in
            let owner = model.ancestry(of: entry.entity).first { $0.relationships.contains { $0.name == relationship.name } }?.name
            return (relationship, "\(owner ?? entry.entity).\(relationship.name)")
        }
        knownKeys = Set(EntityExportLayout(model: model, entity: entry.entity)?.columnNames ?? [])
        reader = try ExportFileReader(file, format: format)
        try advance()
    }

    /// Reads the next record into `pending` (nil after the last).
    func advance() throws(ExportError) {
        guard let cells = try reader.nextRecord() else {
            pending = nil
            return
        }
        line += 1
        guard let keyCell = cells["Z_PK"], case .success(let found) = keyCell.key(), let primaryKey = found else {
            throw .verification(path: path, reason: "record \(line) has no integer Z_PK")
        }
        // Checked without allocating; the first unknown key by name only when there is one.
        if cells.keys.contains(where: { !knownKeys.contains($0) }), let unknown = cells.keys.filter({ !knownKeys.contains($0) }).min() {
            throw .verification(path: path, reason: "record \(line) (Z_PK \(primaryKey)) holds \"\(unknown)\", which an export of "
                + "\(schema.entity.name) does not write: its value would not be restored")
        }
        var values: [AttributeValue] = []
        values.reserveCapacity(schema.attributes.count)
        for attribute in schema.attributes {
            guard let value = (cells[attribute.name] ?? .null).attribute(attribute.type) else {
                throw .verification(path: path, reason: "record \(line) (Z_PK \(primaryKey)): \(attribute.name) is not \(attribute.type.withArticle)")
            }
            values.append(value)
        }
        var recordLinks: [RecordLink] = []
        for relationship in links {
            let cell = cells[relationship.name] ?? .null
            let keys: [Int64]?
            if relationship.isToMany {
                keys = cell.keys()
            } else if case .success(let key) = cell.key() {
                keys = key.map { [$0] } ?? []
            } else {
                keys = nil
            }
            guard let keys else {
                throw .verification(path: path, reason: "record \(line) (Z_PK \(primaryKey)): \(relationship.name) does not hold Z_PKs")
            }
            if !keys.isEmpty { recordLinks.append(RecordLink(relationship: relationship.name, targets: keys.map { .key(.integer($0)) })) }
        }
        for (relationship, tally) in otherSides {
            guard let cell = cells[relationship.name] else { continue }
            if relationship.isToMany {
                namedPairs[tally, default: 0] += Set(cell.keys() ?? []).count
            } else if case .success(let key) = cell.key(), key != nil {
                namedPairs[tally, default: 0] += 1
            }
        }
        pending = (primaryKey, Record(values: values, location: SourceLocation(file: path, line: line),
                                      key: .integer(primaryKey), links: recordLinks))
    }
}
