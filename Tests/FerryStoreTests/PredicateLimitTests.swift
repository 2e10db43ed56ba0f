import FerryStore
import Testing

/// Hostile predicates: nesting, comparisons, sort keys and values beyond the limits are Ferry's own
/// errors with a position, never a stack overflow or a raw SQLite error; at the limits they run.
@Suite struct PredicateLimitTests {
    func store() throws -> PredicateWorkspaceStore { try PredicateWorkspaceStore.shared.get() }

    /// `depth` groups alternating OR and AND, each a new level of parentheses, around an ANY.
    static func alternatingGroups(_ depth: Int) -> String {
        var text = "ANY tags.name ==[c] 'red'"
        for level in 0..<depth { text = "priority == \(level) \(level % 2 == 0 ? "OR" : "AND") (\(text))" }
        return text
    }

    @Test func nestingPastTheLimitIsAnErrorAtItsColumn() {
        let limit = FetchPredicate.maxNesting
        let nots = String(repeating: "NOT ", count: 30_000) + "priority == 1"
        #expect(throws: FetchPredicateError.nestedTooDeep(column: 4 * limit + 1, limit: limit)) { try FetchPredicate(format: nots) }
        let parentheses = String(repeating: "(", count: 20_000) + "priority == 1" + String(repeating: ")", count: 20_000)
        #expect(throws: FetchPredicateError.nestedTooDeep(column: limit + 1, limit: limit)) { try FetchPredicate(format: parentheses) }
        let lists = "priority IN " + String(repeating: "{", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(throws: FetchPredicateError.nestedTooDeep(column: 13 + limit, limit: limit)) { try FetchPredicate(format: lists) }
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(format: Self.alternatingGroups(limit + 1)) }
    }

    @Test func comparisonsPastTheLimitAreAnErrorAtTheFirstOneTooMany() {
        let limit = FetchPredicate.maxComparisons
        let ors = Array(repeating: "priority == 1", count: 6_000).joined(separator: " OR ")
        let column = limit * "priority == 1 OR ".count + 1
        #expect(throws: FetchPredicateError.tooManyComparisons(column: column, limit: limit)) { try FetchPredicate(format: ors) }
        let error = FetchPredicateError.tooManyComparisons(column: column, limit: limit)
        #expect(error.description.contains("IN {"))
    }

    @Test func sortKeysPastTheLimitAreAnError() {
        let keys = Array(repeating: "priority", count: 5_000).joined(separator: ",")
        #expect(throws: FetchPredicateError.tooManySortKeys(count: 5_000, limit: FetchSort.maxKeys)) { try FetchSort.parse(keys) }
    }

    @Test func valuesPastSQLitesLimitAreAnError() throws {
        let store = try store()
        let values = (0..<40_000).map(String.init).joined(separator: ", ")
        #expect(throws: FetchPredicateError.tooManyValues(count: 40_000, limit: PredicateCompiler.maxParameters)) {
            try store.keys("priority IN {\(values)}", entity: "Task")
        }
    }

    @Test func likePatternsPastSQLitesLimitAreAnError() throws {
        let store = try store()
        let long = String(repeating: "*a", count: 30_000)
        #expect(throws: FetchPredicateError.unsupported("a LIKE pattern of 60000 bytes: SQLite takes at most 50000")) {
            try store.keys("title LIKE '\(long)'", entity: "Task")
        }
        let longest = String(repeating: "a", count: 49_999) + "*"
        #expect(try store.keys("title LIKE '\(longest)'", entity: "Task").isEmpty)
    }

    @Test func predicatesAtTheLimitsRunInSQLite() throws {
        let store = try store()
        let depth = FetchPredicate.maxNesting - 1
        #expect(try store.keys(Self.alternatingGroups(depth), entity: "Task") == store.keys(Self.alternatingGroups(depth - 1), entity: "Task"))
        let nots = String(repeating: "NOT ", count: FetchPredicate.maxNesting) + "priority == 1"
        #expect(try store.keys(nots, entity: "Task") == store.keys("priority == 1", entity: "Task"))
        let ors = (0..<FetchPredicate.maxComparisons).map { "taskID == \($0)" }.joined(separator: " OR ")
        #expect(try store.keys(ors, entity: "Task").count == 120)
        let ands = "(" + Array(repeating: "taskID > 0", count: FetchPredicate.maxComparisons / 2).joined(separator: " AND ") + ") OR ("
            + Array(repeating: "ANY tags.name == 'red'", count: FetchPredicate.maxComparisons / 2).joined(separator: " AND ") + ")"
        #expect(try store.keys(ands, entity: "Task").count == 120)
        let sort = Array(repeating: "-priority", count: FetchSort.maxKeys).joined(separator: ",")
        let query = PredicateQuery(entity: "Task", sort: try FetchSort.parse(sort))
        #expect(try query.compile(with: store.compiler).primaryKeys(on: store.database()).count == 120)
    }
}
