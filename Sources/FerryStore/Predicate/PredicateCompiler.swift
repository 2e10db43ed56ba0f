import FerryModel

/// A predicate compiled for one entity of a store: the `FROM` clause (the entity's table as `t0`
/// and the `LEFT JOIN`s of its to-one key paths) and the `WHERE` condition, with one bound
/// parameter per `?`, in order.
///
/// Only names from the store layout, fixed keywords and entity numbers appear in the SQL text;
/// every value of the predicate is a parameter. The condition calls the functions of
/// `PredicateSQLFunctions`, which must be registered on the connection that runs it.
public struct CompiledPredicate: Sendable, Equatable {
    public var entity: String
    /// `ZTABLE t0 LEFT JOIN ZOTHER t1 ON t1.Z_PK = t0.ZOTHER …`.
    public var fromClause: String
    /// The condition, including the restriction to the entity's `Z_ENT`s when its table holds
    /// other entities too.
    public var whereClause: String
    public var parameters: [StoreValue]
}

/// Compiles predicates against a model and its store layout.
public struct PredicateCompiler: Sendable {
    /// The most values one compiled predicate binds: SQLite's default limit of parameters in a
    /// statement (`SQLITE_MAX_VARIABLE_NUMBER`, 32,766), which builds of SQLite may lower.
    public static let maxParameters = 32_766

    public let model: ManagedObjectModel
    public let layout: StoreLayout

    public init(model: ManagedObjectModel, layout: StoreLayout) {
        self.model = model
        self.layout = layout
    }

    /// Compiles `predicate` for the rows of `entity` (and its sub-entities), replacing `$NAME`
    /// variables by `variables["NAME"]` (a missing one is an error).
    public func compile(_ predicate: FetchPredicate, entity: String,
                        variables: [String: PredicateValue] = [:]) throws(FetchPredicateError) -> CompiledPredicate {
        let scope = try SQLQueryScope(resolver: KeyPathResolver(model: model, layout: layout), entity: entity)
        let condition = try condition(predicate, in: scope, variables: variables)
        return CompiledPredicate(entity: entity, fromClause: scope.fromClause, whereClause: condition.text,
                                 parameters: condition.parameters)
    }

    /// Parses and compiles a format string.
    public func compile(format: String, entity: String,
                        variables: [String: PredicateValue] = [:]) throws(FetchPredicateError) -> CompiledPredicate {
        try compile(FetchPredicate(format: format), entity: entity, variables: variables)
    }

    /// The condition of `predicate` in `scope`, with the entity restriction in front.
    func condition(_ predicate: FetchPredicate?, in scope: SQLQueryScope,
                   variables: [String: PredicateValue]) throws(FetchPredicateError) -> SQLFragment {
        var parts: [SQLFragment] = []
        if let restriction = try scope.resolver.entityRestriction(scope.root) { parts.append(SQLFragment(restriction)) }
        if let predicate {
            let compiled = try PredicateSQLCompiler(scope: scope, variables: variables).compile(predicate)
            guard compiled.parameters.count <= Self.maxParameters else {
                throw .tooManyValues(count: compiled.parameters.count, limit: Self.maxParameters)
            }
            parts.append(compiled)
        }
        return parts.isEmpty ? SQLFragment("1") : SQLFragment.joined(parts, separator: "AND")
    }
}
