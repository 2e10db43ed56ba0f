import FerryModel
import FerryStore
import FerryTestSupport
import Testing

/// The layout Core Data's rules give each corpus store's own model (from its `Z_MODELCACHE`),
/// compared with the store Apple wrote: every table's columns in order, and the indexes of every
/// table as a multiset of (table, columns, unique). Index names are left out: older frameworks
/// named them otherwise (`ZBOT_ZIDENTIFIER_INDEX`).
@Suite("Core Data's layout rules against every corpus store", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct CorpusLayoutRuleTests {
    /// Stores whose layout the rules do not give yet, each with the reason.
    static let knownDifferences: [String: String] = [
        "log2timeline__plaso/test_data/ios/NoteStore.sqlite":
            "ICAccount.replicaIDToBundleIdentifier (Transformable) stands before every Binary column of the table, where "
            + "XCServerCoreData's ZINTEGRATION mixes Transformable and Binary by name: what puts a transformable first is not known",
    ]

    @Test("columns in order and indexes by table, columns and uniqueness", arguments: CorpusStores.all)
    func layoutRule(_ relative: String) throws {
        let store = try CoreDataStoreReader(path: CorpusStores.path(relative))
        // Stores without a model (fw 241/519, or an emptied Z_MODELCACHE) have nothing to lay out.
        guard let model = try? StoreModelMatch.archivedModel(of: store) else { return }
        let layout: StoreLayout
        do { layout = try StoreLayout(model: model, existing: store.facts) } catch {
            #expect(Self.knownDifferences[relative] != nil, "\(error)")
            return
        }
        var differences: [String] = []
        let stored = Dictionary(store.primaryKeys.map { ($0.name, Int($0.entityNumber)) }, uniquingKeysWith: { first, _ in first })
        for (entity, number) in model.entityNumbers where stored[entity].map({ $0 != number }) == true {
            differences.append("entity \(entity): rule \(number), store \(stored[entity] ?? 0)")
        }
        for table in layout.tables {
            guard let actual = store.schema.table(named: table.name) else {
                differences.append("no table \(table.name)")
                continue
            }
            let expected = table.columns.map(\.name), found = actual.columns.map(\.name)
            if expected != found { differences.append("\(table.name) columns: rule \(expected), store \(found)") }
        }
        let tables = Set(layout.tables.map(\.name))
        func key(_ table: String, _ columns: [String], _ unique: Bool) -> String { "\(table)(\(columns.joined(separator: ",")))\(unique ? " unique" : "")" }
        let expectedIndexes = layout.indexes.map { key($0.table, $0.columns, $0.isUnique) }.sorted()
        let foundIndexes = store.schema.indexes.filter { tables.contains($0.table) && !$0.name.hasPrefix("sqlite_autoindex") }
            .map { key($0.table, $0.columns, $0.isUnique) }.sorted()
        if expectedIndexes != foundIndexes {
            var surplus: [String: Int] = [:]
            for index in expectedIndexes { surplus[index, default: 0] += 1 }
            for index in foundIndexes { surplus[index, default: 0] -= 1 }
            let uneven = surplus.filter { $0.value != 0 }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value > 0 ? "+" : "")\($0.value)" }
            differences.append("indexes (rule's count over the store's): \(uneven)")
        }
        if let reason = Self.knownDifferences[relative] {
            #expect(!differences.isEmpty, "\(relative) matches now (was: \(reason)): remove it from the known differences")
        } else {
            #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        }
    }
}
