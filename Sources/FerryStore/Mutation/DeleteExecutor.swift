import FerryModel

/// Writes a `DeletePlan` into the store (inside the caller's transaction).
struct DeleteExecutor {
    let store: MutableStore

    func apply(_ plan: DeletePlan) throws(StoreMutationError) {
        let statements = StatementCache(database: store.database)
        try StoreMutationError.sqlite { () throws(SQLiteError) in
            for reference in plan.nullified {
                guard let relationship = reference.relationship,
                      case .sourceRow(let key) = store.placement(named: relationship) else { continue }
                try statements.prepared("UPDATE \(key.table) SET \(key.clearing) WHERE Z_PK = ? AND \(key.key) = ?",
                                        binding: reference.object.primaryKey, reference.deletedObject.primaryKey).run()
            }
            for reference in plan.unlinked {
                guard case .destinationRows(let key) = store.placement(named: reference.via), key.isToManyKey else { continue }
                try statements.prepared("UPDATE \(key.table) SET \(key.clearing) WHERE Z_PK = ? AND \(key.key) = ?",
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
                        guard case .joinTable(let join) = store.layout.placement(of: relationship.name, of: owner.name) else { continue }
                        try statements.prepared("DELETE FROM \(join.table) WHERE \(join.rowsNamingObject)", binding: object.primaryKey).run()
                    }
                }
                guard let table = store.layout.table(forEntity: object.entity) else { continue }
                try statements.prepared("DELETE FROM \(table.name) WHERE Z_PK = ?", binding: object.primaryKey).run()
            }
        }
    }
}
