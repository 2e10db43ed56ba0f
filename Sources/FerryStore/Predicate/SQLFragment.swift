/// SQL text with the values of its `?` parameters, in order. Text comes only from the layout and
/// from fixed keywords; every value from a predicate travels as a parameter.
struct SQLFragment {
    var text: String
    var parameters: [StoreValue]

    init(_ text: String, _ parameters: [StoreValue] = []) {
        self.text = text
        self.parameters = parameters
    }

    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.text + rhs.text, lhs.parameters + rhs.parameters)
    }

    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(lhs.text + rhs, lhs.parameters)
    }

    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs + rhs.text, rhs.parameters)
    }

    /// `(a) separator (b) …`.
    static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (offset, part) in parts.enumerated() {
            result = result + (offset == 0 ? "(" : ") \(separator) (") + part
        }
        return result + ")"
    }

    /// One `?` per value, comma separated.
    static func placeholders(_ values: [StoreValue]) -> SQLFragment {
        SQLFragment(Array(repeating: "?", count: values.count).joined(separator: ", "), values)
    }
}

/// Table aliases (`t0`, `t1`, …) handed out once per query, and the `LEFT JOIN`s of to-one key
/// paths in one `FROM` clause (the query's, or an `EXISTS` subquery's), each made once.
final class SQLJoins {
    private(set) var clauses: [String] = []
    private var aliasesByKey: [String: String] = [:]
    private let aliases: SQLAliases

    init(aliases: SQLAliases) {
        self.aliases = aliases
    }

    /// The alias of `table` joined on `table.Z_PK = foreignKey` (a qualified column), made on first use.
    func join(table: String, on foreignKey: String) -> String {
        let key = "\(table) \(foreignKey)"
        if let alias = aliasesByKey[key] { return alias }
        let alias = aliases.next()
        aliasesByKey[key] = alias
        clauses.append("LEFT JOIN \(table) \(alias) ON \(alias).Z_PK = \(foreignKey)")
        return alias
    }

    var text: String { clauses.map { " " + $0 }.joined() }
}

/// Hands out table aliases unique within one statement.
final class SQLAliases {
    private var count = 0

    func next() -> String {
        defer { count += 1 }
        return "t\(count)"
    }
}
