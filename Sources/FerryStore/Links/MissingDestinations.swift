import FerryModel

extension StagedLinks {
    /// Find or create: inserts a destination row of `kind` (whose links match an attribute) for
    /// each matched value no row of the destination's table holds yet, in the order the values
    /// were first staged, with `values` (attribute name → value in its storage form, asked for
    /// only when a row is made) in the other columns that have one. Returns how many were
    /// created. Values staged only by records removed since (`removedRows`) make none.
    public func createMissingDestinations(of kind: LinkKind, values defaults: () throws(LinkResolutionError) -> [(attribute: String, value: StoreValue)])
        throws(LinkResolutionError) -> Int
    {
        let destination = kind.relationship.destinationEntity
        let target = try EntityTable(destination, writer)
        guard let attribute = kind.matchAttribute else { return 0 }
        let column = try target.attributeColumn(attribute.name, of: destination, model: writer.model)
        let work = Self.schema
        let kept = try removedRows
            ? "AND (pk IS NULL OR EXISTS (SELECT 1 FROM \(EntityTable(kind.entity, writer).table) s WHERE s.Z_PK = pk))" : ""
        // A value any row of the table holds (a sibling entity's, under a constraint of their
        // parent) makes nothing: the row made could not be inserted, or would duplicate it.
        try execute("""
            CREATE TABLE \(work).new AS SELECT value FROM \(work).links WHERE kind = \(kind.id) AND value IS NOT NULL \(kept)
                AND value NOT IN (SELECT \(column) FROM \(target.table) WHERE \(column) IS NOT NULL)
                GROUP BY value ORDER BY min(rowid)
            """)
        let created = try count("SELECT count(*) FROM \(work).new")
        if created > 0 {
            // Only a destination that is missing needs an entity to make it from.
            guard writer.model.entity(named: destination)?.isAbstract == false, let number = writer.layout.entityNumbers[destination] else {
                try execute("DROP TABLE \(work).new")
                throw .unsupported(entity: kind.entity, relationship: kind.relationship.name,
                                   reason: "cannot create \(destination) records (abstract or unknown), and \(created) values find none")
            }
            var columns = ["Z_PK", "Z_ENT", "Z_OPT", column]
            var values: [StoreValue] = []
            for (other, value) in try defaults() {
                guard let otherColumn = try? target.attributeColumn(other, of: destination, model: writer.model) else { continue }
                columns.append(otherColumn)
                values.append(value)
            }
            let keys = try LinkResolutionError.store { () throws(StoreWriterError) in
                try writer.reservePrimaryKeys(root: target.root, count: created)
            }
            let parameters = Array(repeating: "?", count: values.count)
            let insert = try LinkResolutionError.store { () throws(StoreWriterError) in
                try writer.prepareStatement("""
                    INSERT INTO \(target.table) (\(columns.joined(separator: ", ")))
                        SELECT \(keys.lowerBound - 1) + rowid, \(number), 1, value\(parameters.map { ", " + $0 }.joined()) FROM \(work).new ORDER BY rowid
                    """)
            }
            try LinkResolutionError.sqlite { () throws(SQLiteError) in
                for (position, value) in values.enumerated() { try insert.bind(value, at: Int32(position + 1)) }
                try insert.run()
                insert.finalize()
            }
        }
        try execute("DROP TABLE \(work).new")
        return created
    }

    /// Runs set-based SQL on the store in the writer's batch transaction.
    func execute(_ sql: String) throws(LinkResolutionError) {
        try LinkResolutionError.store { () throws(StoreWriterError) in try writer.execute(sql) }
    }

    /// The integer of the first row of a query (0 when there is none).
    func count(_ sql: String) throws(LinkResolutionError) -> Int {
        try LinkResolutionError.store { () throws(StoreWriterError) in try writer.integer(sql) }
    }
}
