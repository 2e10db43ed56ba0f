import FerryStore
import Testing

@Suite struct PredicateParserTests {
    /// Every construct, written as `description` prints it: parsing and printing give the text back.
    static let canonical = [
        "title == \"a\"", "priority != 3", "priority < -2", "priority <= 2", "priority > 2.5", "priority >= 1e+20",
        "priority BETWEEN {1, 3}", "priority IN {1, 2, 3}", "priority IN $LIST", "priority IN {}",
        "title BEGINSWITH \"T\"", "title ENDSWITH[c] \"x\"", "title CONTAINS[d] \"é\"", "title LIKE[cd] \"*a?\"",
        "title MATCHES \"T.*[0-9]+\"", "notes == nil", "isComplete == YES", "isComplete == NO",
        "dueDate > CAST('2014-01-01T00:00:00.000Z', 'NSDate')", "dueDate < CAST('2001-01-01T00:00:00.500Z', 'NSDate')",
        "task.title == \"x\"", "ANY tags.name == \"red\"", "ALL tags.name != \"red\"", "NONE tags.name == $TAG",
        "attachments.@count > 2", "title == $TITLE", "NOT title == \"a\"", "NOT (title == \"a\" OR title == \"b\")",
        "title == \"a\" AND (priority == 1 OR priority == 2)", "(title == \"a\" AND priority == 1) OR priority == 2",
        "TRUEPREDICATE", "FALSEPREDICATE", "#in == 1", "a.#AND.c == \"x\"", "title == \"q\\\"uote\\\\ \\n\\t\"",
        "dueDate < remindAt",
    ]

    @Test(arguments: canonical) func printsWhatItParses(text: String) throws {
        let predicate = try FetchPredicate(format: text)
        #expect(predicate.description == text)
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    /// Other spellings parse to the same predicate as their canonical form.
    @Test(arguments: [
        ("title = 'a'", "title == \"a\""), ("priority <> 3", "priority != 3"), ("priority =< 2", "priority <= 2"),
        ("priority => 2", "priority >= 2"), ("a == 1 && b == 2 || !(c == 3)", "(a == 1 AND b == 2) OR NOT c == 3"),
        ("some tags.name == 'x'", "ANY tags.name == \"x\""), ("notes == NULL", "notes == nil"),
        ("isComplete == true", "isComplete == YES"), ("isComplete == False", "isComplete == NO"),
        ("title beginswith[C] 'a'", "title BEGINSWITH[c] \"a\""), ("title like [dc] 'a'", "title LIKE[cd] \"a\""),
        ("dueDate > cast(\"2014-01-01\", \"NSDate\")", "dueDate > CAST('2014-01-01T00:00:00.000Z', 'NSDate')"),
        ("dueDate > CAST('2014-01-01T02:00:00+02:00', 'NSDate')", "dueDate > CAST('2014-01-01T00:00:00.000Z', 'NSDate')"),
        ("dueDate > CAST(410227200, 'NSDate')", "dueDate > CAST('2014-01-01T00:00:00.000Z', 'NSDate')"),
        ("a == 'it\\'s \\u00e9'", "a == \"it's é\""), ("((a == 1))", "a == 1"),
        ("a == 1 AND (b == 2 AND c == 3)", "a == 1 AND b == 2 AND c == 3"),
    ])
    func alternativeSpellings(text: String, canonical: String) throws {
        #expect(try FetchPredicate(format: text).description == canonical)
    }

    @Test func treeShape() throws {
        let predicate = try FetchPredicate(format: "ANY tags.name ==[c] $T OR NOT priority BETWEEN {1, 2}")
        #expect(predicate == .or([
            .comparison(Comparison(quantifier: .any, .keyPath(["tags", "name"]), .equal, options: .caseInsensitive, .variable("T"))),
            .not(.comparison(Comparison(.keyPath(["priority"]), .between, .aggregate([.value(.integer(1)), .value(.integer(2))])))),
        ]))
        #expect(try FetchPredicate(format: "NONE tags.name == 'x'") ==
            .comparison(Comparison(quantifier: Quantifier.none, .keyPath(["tags", "name"]), .equal, .value(.string("x")))))
        #expect(try FetchPredicate(format: "d == CAST('2001-01-01T00:00:01.5Z', 'NSDate')") ==
            .comparison(Comparison(.keyPath(["d"]), .equal, .value(.date(1.5)))))
    }

    @Test(arguments: [
        ("time > ", 8, "end of input"),
        ("time > 'abc", 8, "end of input"),
        ("time ~ 3", 6, "'~'"),
        ("time FOO 3", 6, "FOO"),
        ("time == 3 extra", 11, "extra"),
        ("(a == 1", 8, "end of input"),
        ("a ==[x] 1", 6, "x"),
        ("a IN {1, 2", 11, "end of input"),
        ("a == CAST('yesterday', 'NSDate')", 11, "\"yesterday\""),
        ("a == CAST(1, 'NSString')", 14, "\"NSString\""),
        ("a. == 1", 4, "'=='"),
        ("a == 'bad \\q'", 11, "\\q"),
        ("a == 12abc", 6, "12a"),
        ("AND == 1", 1, "AND"),
        ("é == 'x' AND ü ~ 1", 16, "'~'"),
        ("a; DROP TABLE ZTASK", 2, "';'"),
    ])
    func syntaxErrorsNameTheColumn(text: String, column: Int, found: String) throws {
        let error = try #require(throws: FetchPredicateError.self) { try FetchPredicate(format: text) }
        guard case .syntax(let reported, let expected, let foundText) = error else {
            Issue.record("not a syntax error: \(error)")
            return
        }
        #expect(reported == column)
        #expect(foundText == found)
        #expect(!expected.isEmpty)
        #expect(error.description.contains("column \(column)"))
    }

    @Test func sortKeys() throws {
        #expect(try FetchSort.parse("title, -task.priority,dueDate") == [
            FetchSort(keyPath: ["title"]), FetchSort(keyPath: ["task", "priority"], ascending: false), FetchSort(keyPath: ["dueDate"]),
        ])
        #expect(try FetchSort.parse("-a.b").map(\.description) == ["-a.b"])
        let error = try #require(throws: FetchPredicateError.self) { try FetchSort.parse("title,,x") }
        #expect(error == .syntax(column: 7, expected: "a key path, or -key for descending order", found: "nothing"))
        #expect(throws: FetchPredicateError.self) { try FetchSort.parse("a..b") }
    }
}
