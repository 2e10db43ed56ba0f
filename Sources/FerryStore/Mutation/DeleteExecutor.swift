import FerryModel

/// Writes a `DeletePlan` into the store (inside the caller's transaction).
struct DeleteExecutor {
    let store: MutableStore

    func apply(_ plan: DeletePlan) throws(StoreMutationError) {
        let statements = StatementCache(database: store.database)
        try StoreMutationError.sqlite { () throws(SQLiteError) in
            for reference in plan.nullified {
                guard let relationship = reference.relationship, let dot = relationship.firstIndex(of: ".") else { continue }
                let owner = String(relationship[..<dot]), name = String(relationship[relationship.index(after: dot)...])
                guard store.model.entity(named: owner)?.relationship(named: name)?.isToMany == false,
                      let columns = ForeignKeyColumns(owner: owner, relationship: name, layout: store.layout) else { continue }
                try statements.prepared("UPDATE \(columns.table) SET \(columns.clearing) WHERE Z_PK = ? AND \(columns.key) = ?",
                                        binding: reference.object.primaryKey, reference.deletedObject.primaryKey).run()
            }
            for object in plan.modified {
                guard let table = store.layout.table(forEntity: object.entity) else { continue }
                try statements.prepared("UPDATE \(table.name) SET Z_OPT = COALESCE(Z_OPT, 0) + 1 WHERE Z_PK = ?",
                                        binding: object.primaryKey).run()
            }
            for deleted in plan.deleted {
                let object = deleted.object
                for owner in store.model.ancestry(of: object.entity) {
                    for relationship in owner.relationships where relationship.isToMany && !relationship.isTransient {
                        guard case .join(let table, let source, _) = try? RelationshipStorage(
                            relationship, owner: owner.name, model: store.model, layout: store.layout) else { continue }
                        try statements.prepared("DELETE FROM \(table) WHERE \(source) = ?", binding: object.primaryKey).run()
                    }
                }
                guard let table = store.layout.table(forEntity: object.entity) else { continue }
                try statements.prepared("DELETE FROM \(table.name) WHERE Z_PK = ?", binding: object.primaryKey).run()
            }
        }
    }
}
