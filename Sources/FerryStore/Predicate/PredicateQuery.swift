/// A fetch: the objects of an entity (and its sub-entities) matching a predicate, sorted,
/// limited and offset.
public struct PredicateQuery: Sendable, Equatable {
    public var entity: String
    public var predicate: FetchPredicate?
    public var sort: [FetchSort]
    public var limit: Int?
    public var offset: Int
    /// Whether the rows also hold the destinations of every to-many relationship, as a fetch
    /// request's objects do (`CompiledQuery.toManyRelationships`).
    public var includesToManyKeys: Bool

    public init(entity: String, predicate: FetchPredicate? = nil, sort: [FetchSort] = [], limit: Int? = nil, offset: Int = 0,
                includesToManyKeys: Bool = false) {
        self.entity = entity
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.includesToManyKeys = includesToManyKeys
    }

    /// The complete `SELECT`. Columns: `Z_PK`, `Z_ENT`, then `columns` (the entity's attribute and
    /// to-one columns, inherited ones included, in table order), then, with `includesToManyKeys`,
    /// one per `toManyRelationships`. Rows come in sort order, ties broken by `Z_PK`.
    public func compile(with compiler: PredicateCompiler,
                        variables: [String: PredicateValue] = [:]) throws(FetchPredicateError) -> CompiledQuery {
        let scope = try SQLQueryScope(resolver: KeyPathResolver(model: compiler.model, layout: compiler.layout), entity: entity)
        let condition = try compiler.condition(predicate, in: scope, variables: variables)
        var order: [String] = []
        for key in sort {
            let path = key.keyPath.joined(separator: ".")
            let scalar: KeyPathTerm
            do {
                let steps = try scope.resolver.steps(key.keyPath, from: entity)
                scalar = try scope.resolver.scalar(steps[...], at: scope.root, joins: scope.joins, keyPath: path)
            } catch .unsupported(let reason) {
                throw .unsupportedSortKey(key: path, reason: "rows sort by an attribute of \(entity) or of a to-one destination (\(reason))")
            }
            guard case .column(let column, _) = scalar else {
                throw .unsupportedSortKey(key: path, reason: "rows sort by an attribute of \(entity) or of a to-one destination, not a relationship")
            }
            order.append(column + (key.ascending ? " ASC" : " DESC"))
        }
        order.append("\(scope.root.alias).Z_PK ASC")
        let columns = compiler.layout.columns(forEntity: entity).filter {
            $0.role != .primaryKey && $0.role != .entityNumber && $0.role != .optimisticLock
        }
        let root = scope.root.alias
        var selected = [root + ".Z_PK", root + ".Z_ENT"] + columns.map { root + "." + $0.name }
        var toMany: [String] = []
        if includesToManyKeys {
            for relationship in compiler.model.allRelationships(of: entity) where relationship.isToMany && !relationship.isTransient {
                let owner = compiler.model.declaringEntity(ofProperty: relationship.name, in: entity)?.name ?? entity
                guard let keys = try scope.resolver.destinationKeys(relationship, declaredBy: owner, from: scope.root,
                                                                    aliases: scope.aliases) else { continue }
                selected.append(keys)
                toMany.append(relationship.name)
            }
        }
        var sql = "SELECT \(selected.joined(separator: ", "))"
        sql += " FROM \(scope.fromClause) WHERE \(condition.text) ORDER BY \(order.joined(separator: ", "))"
        var parameters = condition.parameters
        if limit != nil || offset > 0 {
            sql += " LIMIT ? OFFSET ?"
            parameters += [.integer(Int64(max(limit ?? -1, -1))), .integer(Int64(max(offset, 0)))]
        }
        return CompiledQuery(sql: sql, parameters: parameters, columns: columns, toManyRelationships: toMany)
    }
}

/// A compiled `PredicateQuery`: SQL text, its parameters and the columns after `Z_PK`, `Z_ENT`.
public struct CompiledQuery: Sendable, Equatable {
    public var sql: String
    public var parameters: [StoreValue]
    /// The entity columns the rows hold from column index 2 on.
    public var columns: [ColumnLayout]
    /// The to-many relationships whose destinations the rows hold after `columns`, one column
    /// each: their `Z_PK`s as text separated by spaces, in the relationship's order, NULL for none.
    public var toManyRelationships: [String]

    /// Registers the predicate functions on `database`, prepares the query and binds its
    /// parameters; step the statement for the rows.
    public func prepare(on database: SQLiteDatabase) throws(SQLiteError) -> SQLiteStatement {
        try PredicateSQLFunctions.register(on: database)
        let statement = try database.prepare(sql)
        for (offset, value) in parameters.enumerated() {
            try statement.bind(value, at: Int32(offset + 1))
        }
        return statement
    }

    /// The `Z_PK` of every row, in order.
    public func primaryKeys(on database: SQLiteDatabase) throws(SQLiteError) -> [Int64] {
        let statement = try prepare(on: database)
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(at: 0)) }
        return keys
    }
}
