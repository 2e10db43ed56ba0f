import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// One predicate semantics: the in-memory evaluator (mapping filters over file records) and the
/// SQL compiler (`query`, `update`, `delete`) select the same records from the same text, which
/// compares by UTF-8 bytes as SQLite does.
@Suite("predicate semantics: evaluator and SQL agree")
struct PredicateSemanticsTests {
    /// `é` precomposed and decomposed (canonically equivalent, different bytes), CJK, case and
    /// diacritic variants.
    static let words = ["\u{E9}", "e\u{301}", "E", "e", "été", "Été", "東京", "东京", "f", ""]

    static let predicates = [
        "text == \"\u{E9}\"", "text == \"e\u{301}\"", "text != \"\u{E9}\"", "text CONTAINS \"\u{301}\"",
        "text CONTAINS \"\u{E9}\"", "text BEGINSWITH \"e\"", "text ENDSWITH \"\u{301}\"", "text < \"f\"", "text >= \"e\u{301}\"",
        "text ==[c] \"É\"", "text ==[d] \"e\"", "text ==[cd] \"E\"", "text LIKE \"?\"", "text IN {\"\u{E9}\", \"f\"}",
        "text BEGINSWITH[c] \"ÉT\"", "text CONTAINS \"京\"", "text BETWEEN {\"e\", \"f\"}",
    ]

    static let model = ManagedObjectModel(name: "Words", entities: [Entity(name: "Word", attributes: [Attribute(name: "text", type: .string)])])

    private func store() throws -> MutableStore {
        let path = try TestPaths.temporaryFolder("semantics") + "/words.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model,
                                                    versionHashes: VersionHasher.hashes(of: Self.model).entityHashes, versionIdentifiers: [])
        let words = try writer.inserter(for: "Word")
        for word in Self.words { try words.insert([.text(word)]) }
        try writer.finish()
        return try MutableStore(path: path, model: Self.model)
    }

    @Test("every predicate selects the same words in memory and in SQL", arguments: predicates)
    func agree(_ format: String) throws {
        let predicate = try FetchPredicate(format: format)
        let inSQL = Set(try store().matchingObjects(of: "Word", where: predicate).map { Self.words[Int($0.primaryKey) - 1] })
        let evaluator = try PredicateEvaluator(predicate, attributes: ["text"], entity: "Word")
        let inMemory = Set(try Self.words.filter { word throws(FetchPredicateError) in
            try evaluator.matches { $0 == "text" ? .string(word) : nil }
        })
        #expect(inMemory == inSQL, "\(format): memory \(inMemory.map { Array($0.unicodeScalars) }) SQL \(inSQL.map { Array($0.unicodeScalars) })")
    }

    /// Texts holding what a `LIKE` pattern, GLOB or SQL's LIKE could read as special.
    static let specials = ["a*b", "axb", #"a\b"#, #"a\xb"#, "a?b", "a%b", "a_b", "a[b]", "a]b", "ab", "q'q", #"q"q"#, #"x\"#, #"\"#,
                           "caf\u{E9}", "cafe\u{301}", "CAF\u{C9}", "日本", "日本語"]

    /// `LIKE` as `NSPredicate` reads it (`LikePattern`), with the texts each selects: a backslash
    /// makes the next character literal. Both sides read `\*` as a backslash and a wildcard (`a\*b`
    /// matched `a\xb`, not `a*b`), and no pattern matched a backslash at all.
    static let likeCases: [(format: String, selected: Set<String>)] = [
        (#"text LIKE "a\\*b""#, ["a*b"]),
        (#"text LIKE "a\\?b""#, ["a?b"]),
        (#"text LIKE "a\\\\b""#, [#"a\b"#]),
        (#"text LIKE "a\\\\*""#, [#"a\b"#, #"a\xb"#]),
        (#"text LIKE "\\\\""#, [#"\"#]),
        (#"text LIKE "x\\\\""#, [#"x\"#]),
        (#"text LIKE "\\a\\*b""#, ["a*b"]),
        (#"text LIKE "a?b""#, ["axb", #"a\b"#, "a?b", "a*b", "a%b", "a_b", "a]b"]),
        (#"text LIKE "a%b""#, ["a%b"]), (#"text LIKE "a_b""#, ["a_b"]), (#"text LIKE "a[b]""#, ["a[b]"]),
        (#"text LIKE "a[*""#, ["a[b]"]), (#"text LIKE "a]b""#, ["a]b"]), (#"text LIKE "q'q""#, ["q'q"]), (#"text LIKE 'q"q'"#, [#"q"q"#]),
        (#"text LIKE "caf?""#, ["caf\u{E9}"]), (#"text LIKE[d] "caf?""#, ["caf\u{E9}", "cafe\u{301}"]),
        (#"text LIKE[cd] "CAFE*""#, ["caf\u{E9}", "cafe\u{301}", "CAF\u{C9}"]), (#"text LIKE[c] "CAF\u00C9""#, ["caf\u{E9}", "CAF\u{C9}"]),
        (#"text LIKE "日?""#, ["日本"]), (#"text LIKE "*本*""#, ["日本", "日本語"]),
        (#"text CONTAINS "*""#, ["a*b"]), (#"text ENDSWITH "\\""#, [#"x\"#, #"\"#]), (#"text BEGINSWITH "a\\""#, [#"a\b"#, #"a\xb"#]),
        (#"text MATCHES "a\\\\.b""#, [#"a\xb"#]), (#"text MATCHES "a\\*b""#, ["a*b"]),
    ]

    private func specialsStore() throws -> MutableStore {
        let path = try TestPaths.temporaryFolder("semantics-like") + "/specials.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.model,
                                                    versionHashes: VersionHasher.hashes(of: Self.model).entityHashes, versionIdentifiers: [])
        let words = try writer.inserter(for: "Word")
        for word in Self.specials { try words.insert([.text(word)]) }
        try writer.finish()
        return try MutableStore(path: path, model: Self.model)
    }

    @Test("LIKE escapes, wildcards and the other string operators select what NSPredicate's do, in memory and in SQL",
          arguments: likeCases.indices)
    func likeAsNSPredicate(_ index: Int) throws {
        let (format, expected) = Self.likeCases[index]
        let predicate = try FetchPredicate(format: format)
        let inSQL = Set(try specialsStore().matchingObjects(of: "Word", where: predicate).map { Self.specials[Int($0.primaryKey) - 1] })
        let evaluator = try PredicateEvaluator(predicate, types: ["text": .string], entity: "Word")
        let inMemory = Set(try Self.specials.filter { word throws(FetchPredicateError) in
            try evaluator.matches { $0 == "text" ? .string(word) : nil }
        })
        #expect(inSQL == expected, "\(format): SQL \(inSQL.sorted())")
        #expect(inMemory == expected, "\(format): memory \(inMemory.sorted())")
    }

    @Test("a LIKE pattern ending in a lone backslash is refused in memory and in SQL, before any record")
    func trailingBackslashRefused() throws {
        let predicate = try FetchPredicate(format: #"text LIKE "a\\""#)
        #expect(throws: FetchPredicateError.invalidLikePattern(pattern: #"a\"#, reason: "it ends in a backslash, which escapes nothing "
            + #"(a pattern matches a backslash with two, written "\\\\" in a quoted predicate string)"#)) {
            try PredicateEvaluator(predicate, types: ["text": .string], entity: "Word")
        }
        let inSQL = try #require(throws: (any Error).self) { try specialsStore().matchingObjects(of: "Word", where: predicate) }
        #expect("\(inSQL)".contains(#"invalid LIKE pattern "a\": it ends in a backslash"#), "\(inSQL)")
    }

    /// Values compared with typed attributes, as `ferry query --where` compiles them: a number
    /// as text (`n == "2"`), a UUID in lower case, a boolean as 1. The evaluator knew no types,
    /// and `n == "2"` held for none of the records it held for in SQL.
    static let typedPredicates = [
        "n == \"2\"", "n IN {\"1\", 3}", "n BETWEEN {\"1\", \"2\"}", "n > \"1.5\"", "d == \"2\"", "d < 2",
        "u == \"a4832d9a-596a-48cd-a2aa-d1d3152e62a9\"", "u != \"A4832D9A-596A-48CD-A2AA-D1D3152E62A9\"", "b == 1", "b == YES", "b != NO",
    ]

    static let things = ManagedObjectModel(name: "Things", entities: [Entity(name: "Thing", attributes: [
        Attribute(name: "n", type: .integer64), Attribute(name: "d", type: .double), Attribute(name: "u", type: .uuid),
        Attribute(name: "b", type: .boolean),
    ])])

    static let thingValues: [[AttributeValue]] = [
        [.integer(1), .double(1.5), .uuid(UUIDBytes(string: "A4832D9A-596A-48CD-A2AA-D1D3152E62A9")!), .bool(true)],
        [.integer(2), .double(2), .uuid(UUIDBytes(string: "00000000-0000-0000-0000-000000000001")!), .bool(false)],
        [.integer(3), .null, .null, .null],
    ]

    @Test("a value compared with a typed attribute selects the same records in memory and in SQL", arguments: typedPredicates)
    func typedAgree(_ format: String) throws {
        let path = try TestPaths.temporaryFolder("semantics-typed") + "/things.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: Self.things,
                                                    versionHashes: VersionHasher.hashes(of: Self.things).entityHashes, versionIdentifiers: [])
        let rows = try writer.inserter(for: "Thing")
        let names = Self.things.entities[0].attributes.map(\.name)
        let sources = rows.columns.map { column -> Int? in
            if case .attribute(_, let name) = column.role { names.firstIndex(of: name) } else { nil }
        }
        for values in Self.thingValues { try rows.insert(values, sources: sources) }
        try writer.finish()
        let predicate = try FetchPredicate(format: format)
        let inSQL = Set(try MutableStore(path: path, model: Self.things).matchingObjects(of: "Thing", where: predicate).map { Int($0.primaryKey) })
        let evaluator = try PredicateEvaluator(predicate, types: Self.things.entities[0].attributes.typesByName,
                                               entity: "Thing")
        let inMemory = Set(try Self.thingValues.indices.filter { index throws(FetchPredicateError) in
            try evaluator.matches { name in names.firstIndex(of: name).map { Self.thingValues[index][$0] } }
        }.map { $0 + 1 })
        #expect(inMemory == inSQL, "\(format): memory \(inMemory.sorted()) SQL \(inSQL.sorted())")
        #expect(!inSQL.isEmpty || format.contains("!="), "\(format) selects nothing in SQL")
    }

    /// A string operator or `[c]`/`[d]` on an attribute that is not text is refused in memory as
    /// in SQL: a mapping's `fileType BEGINSWITH "1"` was false for every record (all filtered out, exit 0).
    @Test("a value no attribute of its type takes is refused in memory as in SQL")
    func typedRefusals() throws {
        let types = Self.things.entities[0].attributes.typesByName
        for format in ["n == \"two\"", "u == \"not a uuid\"", "b == 2", "n BEGINSWITH \"1\"", "u LIKE \"A*\"", "n ==[c] 1", "\"1\" LIKE n"] {
            #expect(throws: FetchPredicateError.self, "\(format)") { try PredicateEvaluator(try FetchPredicate(format: format), types: types, entity: "Thing") }
        }
    }
}
