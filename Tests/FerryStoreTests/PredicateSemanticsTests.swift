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
}
