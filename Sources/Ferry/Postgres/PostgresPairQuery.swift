import FerryModel

/// Relationship pairs a store's tables keep apart from the rows a restore reads as records, each
/// read in order of its source record so that the links get their positions: a join table
/// (many-to-many, or a to-many without an inverse), or the key column of a to-one whose inverse is
/// an ordered to-many, read from the parent's side along the order key (Core Data's order).
struct PostgresPairQuery {
    /// The table, and its (source, destination) columns.
    let table: String
    let source: String
    let destination: String
    /// A column that must not be NULL (a to-one's key), or nil.
    let notNull: String?
    /// The position column of an ordered relationship's pairs, or nil.
    let position: String?
    let order: [String]
    /// The entity declaring the relationship the pairs are links of, as the parent side names it.
    let entity: String
    let relationship: String
    /// The relationship the pairs are counted under (`TransferCounts.relationships`).
    let counted: String

    /// Whether the key of `relationship` (a to-one) is read apart from its record, from the
    /// parent's side: its inverse is an ordered to-many.
    static func isReadApart(_ relationship: Relationship, model: ManagedObjectModel) -> Bool {
        model.inverse(of: relationship)?.isOrdered == true
    }

    /// Every such query of a layout: the ordered to-ones of each entity table, then the join tables.
    static func all(in layout: PostgresLayout, model: ManagedObjectModel) -> [PostgresPairQuery] {
        var queries: [PostgresPairQuery] = []
        for table in layout.entityTables {
            for column in table.columns {
                guard case .toOne(let owner, let name) = column.role, let relationship = model.entity(named: owner)?.relationship(named: name),
                      isReadApart(relationship, model: model), let inverse = model.inverse(of: relationship),
                      let parent = model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity)?.name else { continue }
                let position = table.column(.position(entity: owner, relationship: name)).map { [$0.name] } ?? []
                queries.append(PostgresPairQuery(
                    table: table.name, source: column.name, destination: PostgresLayout.primaryKeyColumn, notNull: column.name,
                    position: position.first, order: [column.name] + position + [PostgresLayout.primaryKeyColumn], entity: parent, relationship: inverse.name,
                    counted: owner + "." + name))
            }
        }
        for join in layout.joinTables {
            let position = join.isOrdered ? [PostgresJoinTable.positionColumn] : []
            queries.append(PostgresPairQuery(
                table: join.name, source: PostgresJoinTable.sourceColumn, destination: PostgresJoinTable.destinationColumn, notNull: nil,
                position: position.first, order: [PostgresJoinTable.sourceColumn] + position + [PostgresJoinTable.destinationColumn], entity: join.entity,
                relationship: join.relationship, counted: join.entity + "." + join.relationship))
        }
        return queries
    }
}
