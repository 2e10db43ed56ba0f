import FerryModel

extension MutableStore {
    /// Works out what deleting the objects of `entity` matching `predicate` would do, changing
    /// nothing (`ferry delete --dry-run`).
    public func planDelete(of entity: String, where predicate: FetchPredicate?,
                           variables: [String: PredicateValue] = [:]) throws(StoreMutationError) -> DeletePlan {
        let matched = try matchingObjects(of: entity, where: predicate, variables: variables)
        return try DeletePlanner(store: self).plan(matched)
    }

    /// Deletes the objects of `entity` matching `predicate` with every delete rule applied, in
    /// one transaction: Cascade deletes destinations (recursively), Nullify clears the inverse
    /// on destinations that stay, No Action leaves them pointing at the deleted object, and any
    /// destination of a Deny relationship of any object being deleted refuses the whole delete
    /// (`StoreMutationError.denied`, nothing changed), and so does an object that stays whose
    /// required relationship Nullify would empty or take below its minimum count
    /// (`StoreMutationError.requiredReferences`), which Core Data's validation would not save,
    /// and so does an object that stays whose to-one relationship no delete rule reaches (no
    /// inverse, or an inverse whose key is empty) and would point at a deleted object
    /// (`StoreMutationError.strandedReferences`), a key Core Data would leave dangling;
    /// clearing a relationship a derivation reads throws `.readByDerivedAttribute`
    /// (`DerivedAttributeCheck`), in the plan too. Join-table rows of deleted objects go, and
    /// so do the keys of their to-many relationships without an inverse on destinations that
    /// stay; surviving objects whose reference was cleared get `Z_OPT + 1`; `Z_PRIMARYKEY` is
    /// unchanged. After the commit, the external files of deleted objects' values that no row
    /// names any more are removed (`ExternalFileRelease`).
    /// - Returns: the plan carried out.
    @discardableResult
    public func delete(from entity: String, where predicate: FetchPredicate?,
                       variables: [String: PredicateValue] = [:]) throws(StoreMutationError) -> DeletePlan {
        var plan = try transaction(expected: \.danglingFindings) { () throws(StoreMutationError) in
            let plan = try planDelete(of: entity, where: predicate, variables: variables)
            guard plan.blocked.isEmpty else { throw .denied(plan.blocked) }
            guard plan.invalidated.isEmpty else { throw .requiredReferences(plan.invalidated) }
            guard plan.stranded.isEmpty else { throw .strandedReferences(plan.stranded) }
            let before = try entityTableRows()
            try DeleteExecutor(store: self).apply(plan)
            try account(for: plan, before: before, after: try entityTableRows())
            return plan
        }
        plan.externalFilesRemoved = removeReleasedExternalFiles(plan.externalFiles)
        return plan
    }

    /// The rows of every entity table, counted with `count(*)`.
    private func entityTableRows() throws(StoreMutationError) -> [String: Int64] {
        var rows: [String: Int64] = [:]
        for table in layout.tables {
            guard case .entity = table.kind else { continue }
            rows[table.name] = try StoreMutationError.sqlite { () throws(SQLiteError) in
                try database.scalarInteger("SELECT count(*) FROM \(SQLIdentifier.quoted(table.name))") ?? 0
            }
        }
        return rows
    }

    /// Every entity table lost exactly the rows the plan deletes from it, no more (the store's own
    /// triggers, or a statement that reached other rows) and no fewer; otherwise the delete is
    /// rolled back (`StoreMutationError.changeBreaksStore`).
    private func account(for plan: DeletePlan, before: [String: Int64], after: [String: Int64]) throws(StoreMutationError) {
        var planned: [String: Int64] = [:]
        for deleted in plan.deleted {
            if let table = layout.table(forEntity: deleted.object.entity) { planned[table.name, default: 0] += 1 }
        }
        let unaccounted = before.keys.sorted().compactMap { table -> String? in
            let gone = before[table, default: 0] - after[table, default: 0]
            return gone == planned[table, default: 0] ? nil : "\(table): \(gone) row(s) went, the plan deletes \(planned[table, default: 0])"
        }
        guard unaccounted.isEmpty else { throw .changeBreaksStore(unaccounted) }
    }
}

/// Follows the relationships of the objects to delete, applying each one's delete rule.
struct DeletePlanner {
    let store: MutableStore
    private let statements: StatementCache
    private let entityNames: [Int64: String]

    init(store: MutableStore) {
        self.store = store
        statements = StatementCache(database: store.database)
        entityNames = store.layout.entityNames
    }

    func plan(_ matched: [ObjectKey]) throws(StoreMutationError) -> DeletePlan {
        var plan = DeletePlan()
        var deleted = Set(matched)
        var queue = matched
        plan.deleted = matched.map { DeletedObject(object: $0) }
        var referencing: [Nullification] = []
        var unlinked: [Nullification] = []
        var joinRows: [String: Set<[Int64]>] = [:]
        // The references of objects that stay a delete rule reaches, through their inverse.
        var reached: Set<StrandedReference> = []
        var next = 0
        while next < queue.count {
            let object = queue[next]
            next += 1
            for owner in store.model.ancestry(of: object.entity).reversed() {
                for relationship in owner.relationships where !relationship.isTransient {
                    let name = "\(owner.name).\(relationship.name)"
                    let placement = try store.placement(of: relationship, owner: owner.name)
                    let destinations = try self.destinations(of: object, placement, relationship: relationship)
                    switch placement {
                    case .joinTable(let join):
                        joinRows[join.table, default: []].formUnion(try rows(of: join, naming: object))
                    case .destinationRows(let key) where key.isToManyKey:
                        unlinked += destinations.map { Nullification(object: $0, relationship: nil, deletedObject: object, via: name) }
                    case .sourceRow, .destinationRows:
                        break
                    }
                    // What No Action leaves pointing at the deleted object: keys in the destinations'
                    // rows (a to-many's), or the destination's own to-one back. A to-one whose key
                    // is in the deleted row, inverse to-many, leaves nothing (its key goes with the
                    // row), and join rows are removed.
                    let inverseRelationship = store.model.inverse(of: relationship)
                    let leavesKeys: Bool = switch placement {
                    case .destinationRows: true
                    case .sourceRow: inverseRelationship.map { !$0.isToMany } ?? false
                    case .joinTable: false
                    }
                    let inverse = inverseRelationship.map { inverse in
                        let inverseOwner = store.model.declaringEntity(ofProperty: inverse.name, in: relationship.destinationEntity)
                        return "\(inverseOwner?.name ?? relationship.destinationEntity).\(inverse.name)"
                    }
                    for destination in destinations {
                        if let inverse { reached.insert(StrandedReference(object: destination, relationship: inverse, deletedObject: object)) }
                        let reference = Nullification(object: destination, relationship: inverse, deletedObject: object, via: name)
                        switch relationship.deleteRule {
                        case .deny:
                            plan.blocked.append(DenyBlock(object: object, relationship: name, destination: destination))
                        case .cascade:
                            if deleted.insert(destination).inserted {
                                queue.append(destination)
                                plan.deleted.append(DeletedObject(object: destination, source: object, relationship: name))
                            }
                        case .nullify:
                            if inverse != nil { referencing.append(reference) }
                        case .noAction:
                            if inverse != nil, leavesKeys { plan.dangling.append(reference) }
                        }
                    }
                }
            }
        }
        plan.joinRowsRemoved = joinRows.filter { !$0.value.isEmpty }.mapValues(\.count)
        plan.nullified = referencing.filter { !deleted.contains($0.object) }
        plan.dangling = plan.dangling.filter { !deleted.contains($0.object) }
        plan.unlinked = unlinked.filter { !deleted.contains($0.object) }
        var seen: Set<ObjectKey> = []
        plan.modified = plan.nullified.map(\.object).filter { seen.insert($0).inserted }
        plan.invalidated = try invalidated(plan.nullified, deleted: deleted)
        plan.stranded = try stranded(plan.deleted.map(\.object), deleted: deleted, reached: reached)
        plan.externalFiles = try store.checkExternalFolder(releasing: store.externalFiles(of: plan.deleted.map(\.object)))
        let derivations = try DerivedAttributeCheck(store: store)
        for name in Set(plan.nullified.compactMap(\.relationship)).sorted() {
            guard let (owner, relationship) = MutableStore.split(name) else { continue }
            try derivations.checkReads(owner, relationship)
        }
        return plan
    }

    /// The survivors whose relationship cleared by Nullify would keep fewer destinations than the
    /// model requires, counted from the store as it is, less the objects deleted.
    private func invalidated(_ nullified: [Nullification], deleted: Set<ObjectKey>) throws(StoreMutationError) -> [RequiredReference] {
        var result: [RequiredReference] = []
        var seen: Set<String> = []
        for reference in nullified {
            guard let name = reference.relationship, let (owner, relationshipName) = MutableStore.split(name),
                  seen.insert("\(reference.object) \(name)").inserted,
                  let relationship = store.model.entity(named: owner)?.relationship(named: relationshipName) else { continue }
            let minimum = relationship.minimumDestinations
            guard minimum > 0 else { continue }
            let placement = try store.placement(of: relationship, owner: owner)
            let remaining = try destinations(of: reference.object, placement, relationship: relationship).filter { !deleted.contains($0) }.count
            if remaining < minimum {
                result.append(RequiredReference(object: reference.object, relationship: name, remaining: remaining, minimum: minimum))
            }
        }
        return result
    }

    /// The keys of objects that stay pointing at `objects` through a to-one relationship (of any
    /// entity) that `reached` lacks: no delete rule reaches them from the deleted side.
    private func stranded(_ objects: [ObjectKey], deleted: Set<ObjectKey>,
                          reached: Set<StrandedReference>) throws(StoreMutationError) -> [StrandedReference] {
        let entities = Set(objects.map(\.entity))
        var result: [StrandedReference] = []
        for owner in store.model.entities {
            for relationship in owner.relationships where !relationship.isTransient && !relationship.isToMany {
                let targets = Set(store.model.hierarchy(below: relationship.destinationEntity).map(\.name))
                guard !targets.isDisjoint(with: entities),
                      case .sourceRow(let key) = try store.placement(of: relationship, owner: owner.name) else { continue }
                let name = "\(owner.name).\(relationship.name)"
                for object in objects where targets.contains(object.entity) {
                    for holder in try holders(of: key, pointingAt: object, entity: owner.name) where !deleted.contains(holder) {
                        let reference = StrandedReference(object: holder, relationship: name, deletedObject: object)
                        if !reached.contains(reference) { result.append(reference) }
                    }
                }
            }
        }
        return result
    }

    /// The objects whose rows hold `key` naming `object`, in `Z_PK` order (`entity` when their
    /// `Z_ENT` is not known).
    private func holders(of key: ForeignKeyPlacement, pointingAt object: ObjectKey, entity: String) throws(StoreMutationError) -> [ObjectKey] {
        let sql = "SELECT Z_PK, Z_ENT FROM \(key.table) WHERE \(key.key) = ?"
            + " AND Z_ENT IN (\(store.hierarchyNumbers(key.holder))) ORDER BY Z_PK"
        return try StoreMutationError.sqlite { () throws(SQLiteError) in
            let statement = try statements.prepared(sql, binding: object.primaryKey)
            var found: [ObjectKey] = []
            while try statement.step() {
                found.append(ObjectKey(entity: entityNames[statement.int64(at: 1)] ?? entity, primaryKey: statement.int64(at: 0)))
            }
            return found
        }
    }

    /// The objects `relationship` of `object` reaches, skipping keys whose row is missing.
    private func destinations(of object: ObjectKey, _ placement: RelationshipPlacement,
                              relationship: Relationship) throws(StoreMutationError) -> [ObjectKey] {
        let destination = relationship.destinationEntity
        switch placement {
        case .sourceRow(let key):
            let keys = try integers("SELECT \(key.key) FROM \(key.table) WHERE Z_PK = ? AND \(key.key) IS NOT NULL",
                                    object.primaryKey)
            return try resolve(keys, entity: destination)
        case .destinationRows(let key):
            return try holders(of: key, pointingAt: object, entity: destination)
        case .joinTable(let join):
            let keys = try integers(join.destinationKeys, object.primaryKey)
            return try resolve(keys, entity: destination)
        }
    }

    /// The concrete entities of destination keys, from their rows; keys without a row are dropped.
    private func resolve(_ keys: [Int64], entity: String) throws(StoreMutationError) -> [ObjectKey] {
        let table = try store.table(of: entity)
        var result: [ObjectKey] = []
        for key in keys {
            let sql = "SELECT Z_ENT FROM \(table.name) WHERE Z_PK = ? AND Z_ENT IN (\(store.hierarchyNumbers(entity)))"
            if let number = try integers(sql, key).first {
                result.append(ObjectKey(entity: entityNames[number] ?? entity, primaryKey: key))
            }
        }
        return result
    }

    private func integers(_ sql: String, _ key: Int64) throws(StoreMutationError) -> [Int64] {
        try StoreMutationError.sqlite { () throws(SQLiteError) in
            let statement = try statements.prepared(sql, binding: key)
            var values: [Int64] = []
            while try statement.step() { values.append(statement.int64(at: 0)) }
            return values
        }
    }

    /// The rows of `join` naming `object`, each as its two keys in column-name order, so that a
    /// row reached from both of its objects (both deleted) is counted once.
    private func rows(of join: JoinTablePlacement, naming object: ObjectKey) throws(StoreMutationError) -> [[Int64]] {
        let columns = [join.source, join.destination].sorted().joined(separator: ", ")
        return try StoreMutationError.sqlite { () throws(SQLiteError) in
            let statement = try statements.prepared("SELECT \(columns) FROM \(join.table) WHERE \(join.rowsNamingObject)",
                                                    binding: object.primaryKey)
            var rows: [[Int64]] = []
            while try statement.step() { rows.append([statement.int64(at: 0), statement.int64(at: 1)]) }
            return rows
        }
    }
}

/// Prepared statements by SQL text, reset and bound for each use.
final class StatementCache {
    private let database: SQLiteDatabase
    private var statements: [String: SQLiteStatement] = [:]

    init(database: SQLiteDatabase) {
        self.database = database
    }

    /// The statement for `sql`, reset, with its parameters bound in order.
    func prepared(_ sql: String, binding values: Int64...) throws(SQLiteError) -> SQLiteStatement {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
            try statement.reset()
        } else {
            statement = try database.prepare(sql)
            statements[sql] = statement
        }
        for (offset, value) in values.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
        return statement
    }
}
