/// What one SELECT is compiled in: the root entity's rows (`t0`), its to-one joins and aliases.
final class SQLQueryScope {
    let resolver: KeyPathResolver
    let root: SQLPlace
    let table: TableLayout
    let aliases = SQLAliases()
    let joins: SQLJoins

    init(resolver: KeyPathResolver, entity: String) throws(FetchPredicateError) {
        self.resolver = resolver
        table = try resolver.table(of: entity)
        root = SQLPlace(alias: aliases.next(), entity: entity)
        joins = SQLJoins(aliases: aliases)
    }

    /// `ZTABLE t0 LEFT JOIN …`.
    var fromClause: String { "\(table.name) \(root.alias)\(joins.text)" }
}
