import FerryMigration
import FerryModel
import FerryPostgres

/// How the rows of one entity in its root's table become records: per attribute of its record
/// schema, the selected column holding it (and its exact date column), and the to-one keys that
/// become the record's links (those read with the row: every to-one whose inverse is not an
/// ordered to-many, `PostgresPairQuery`).
struct PostgresRowShape {
    let schema: RecordSchema
    /// Per attribute, in the schema's order; nil when the table has no column for it.
    private let fields: [Field?]
    private let links: [Link]

    private struct Field {
        let column: Int
        let type: PostgresColumnType
        /// The column of its exact date (`PostgresColumn.Role.exactDate`), for dates.
        let exact: Int?
    }

    private struct Link {
        let relationship: String
        let column: Int
    }

    /// The shape of `entity`'s rows among the columns a query of its root's `table` selected.
    init(entity: String, table: PostgresEntityTable, selected: [PostgresColumn], model: ManagedObjectModel,
         origin: String) throws(PostgresTransferError) {
        guard table.entities.contains(entity), let recordSchema = RecordSchema(model: model, entityName: entity) else {
            throw .export(.restore(reason: "\(origin) holds rows of \(entity), which is not an entity of its hierarchy in \(model.name)"))
        }
        schema = recordSchema
        fields = zip(recordSchema.attributes, recordSchema.declaringEntities).map { attribute, owner in
            selected.firstIndex { $0.role == .attribute(entity: owner, name: attribute.name) }.map { column in
                Field(column: column, type: selected[column].type,
                      exact: selected.firstIndex { $0.role == .exactDate(entity: owner, name: attribute.name) })
            }
        }
        links = model.allRelationships(of: entity).compactMap { relationship in
            guard !relationship.isToMany, let owner = model.declaringEntity(ofProperty: relationship.name, in: entity)?.name,
                  let column = selected.firstIndex(where: { $0.role == .toOne(entity: owner, relationship: relationship.name) }) else {
                return nil
            }
            return Link(relationship: relationship.name, column: column)
        }
    }

    /// The record of `row` (whose `Z_PK` is `key`), its to-one keys as links to destination keys;
    /// counts each link in `pairs`, by the column it came from.
    func record(of row: PostgresRow, key: Int64, location: SourceLocation, pairs: inout [Int64]) throws(PostgresError) -> Record {
        var values: [AttributeValue] = []
        values.reserveCapacity(fields.count)
        for (field, attribute) in zip(fields, schema.attributes) {
            guard let field else {
                values.append(.null)
                continue
            }
            if let exact = field.exact, !row.isNull(exact) {
                // The exact seconds are the value; the timestamp beside them (what queries read)
                // must be them to the microsecond, or one of the two was changed.
                let seconds = try row.double(exact)
                let timestamp = row.isNull(field.column) ? nil : try row.timestamp(field.column)
                guard let expected = PostgresValues.timestamp(seconds), timestamp == expected else {
                    throw .value(reason: "the exact date \(seconds) (seconds since 2001) and the timestamptz beside it disagree")
                }
                values.append(.date(seconds))
            } else {
                values.append(try PostgresValues.read(row, field.column, type: field.type, as: attribute.type))
            }
        }
        var recordLinks: [RecordLink] = []
        for link in links where !row.isNull(link.column) {
            recordLinks.append(RecordLink(relationship: link.relationship, targets: [.key(.integer(try row.integer(link.column)))]))
            pairs[link.column] += 1
        }
        return Record(values: values, location: location, key: .integer(key), links: recordLinks)
    }
}
