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
    /// Where this file's records keep each cell `advance` reads, for the columns last seen.
    private var resolved: (columns: ExportColumns, positions: CellPositions)?

    /// The positions of the cells a record is read from, in one set of columns.
    private struct CellPositions {
        var primaryKey: Int?
        var attributes: [Int?]
        var links: [Int?]
        var otherSides: [Int?]
        /// The first name (in order) that an export of the entity does not write.
        var unknown: String?
    }

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
        let positions = positions(of: cells.columns)
        guard positions.primaryKey != nil, case .success(let found) = cells.cell(at: positions.primaryKey).key(), let primaryKey = found else {
            throw .verification(path: path, reason: "record \(line) has no integer Z_PK")
        }
        if let unknown = positions.unknown {
            throw .verification(path: path, reason: "record \(line) (Z_PK \(primaryKey)) holds \"\(unknown)\", which an export of "
                + "\(schema.entity.name) does not write: its value would not be restored")
        }
        var values: [AttributeValue] = []
        values.reserveCapacity(schema.attributes.count)
        for (attribute, position) in zip(schema.attributes, positions.attributes) {
            guard let value = cells.cell(at: position).attribute(attribute.type) else {
                throw .verification(path: path, reason: "record \(line) (Z_PK \(primaryKey)): \(attribute.name) is not \(attribute.type.withArticle)")
            }
            values.append(value)
        }
        var recordLinks: [RecordLink] = []
        for (relationship, position) in zip(links, positions.links) {
            let cell = cells.cell(at: position)
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
        for ((relationship, tally), position) in zip(otherSides, positions.otherSides) {
            guard position != nil else { continue }
            let cell = cells.cell(at: position)
            if relationship.isToMany {
                namedPairs[tally, default: 0] += Set(cell.keys() ?? []).count
            } else if case .success(let key) = cell.key(), key != nil {
                namedPairs[tally, default: 0] += 1
            }
        }
        pending = (primaryKey, Record(values: values, location: SourceLocation(file: path, line: line),
                                      key: .integer(primaryKey), links: recordLinks))
    }

    /// The positions of `columns`' cells, looked up once per set of columns.
    private func positions(of columns: ExportColumns) -> CellPositions {
        if let resolved, resolved.columns === columns { return resolved.positions }
        let positions = CellPositions(primaryKey: columns.position(of: "Z_PK"),
                                      attributes: schema.attributes.map { columns.position(of: $0.name) },
                                      links: links.map { columns.position(of: $0.name) },
                                      otherSides: otherSides.map { columns.position(of: $0.relationship.name) },
                                      unknown: columns.names.filter { !knownKeys.contains($0) }.min())
        resolved = (columns, positions)
        return positions
    }
}
