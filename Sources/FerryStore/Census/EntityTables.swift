/// The table each entity of `Z_PRIMARYKEY` keeps its rows in, told from the store alone (no
/// model): its root's (by `Z_SUPER`) table, `Z` and the root's `Z_NAME` in capitals for an app
/// entity (`ZPOST`), `A` and it for one of Core Data's own (`ACHANGE`, `ANSCKRECORDMETADATA`).
/// A row anywhere else is out of place, whichever way round: no reader reads a row of the app's
/// outside its entity's table, and Core Data's own tables hold Core Data's records only, as its
/// records are counted in their own tables only (a row of `ZFEEDBACK` numbered as a `CHANGE` is
/// no change of the history, and no feedback either).
///
/// A root renamed since the store was written may keep its former `Z_NAME` while its table takes
/// the new name (coredata-format.md §2): an app entity whose table the store lacks is at home in
/// any table but Core Data's own, and what the reader delivers of it is compared with its rows.
struct EntityTables {
    /// The table of each entity, by number, as the rule names it (whether the store has it or not).
    private let tables: [Int64: String]
    /// The store's tables, folded as SQLite folds names (ASCII letters only).
    private let present: Set<String>
    /// The tables of Core Data's own entities, folded.
    private let systemTables: Set<String>

    init(entities: [StoreCensus.EntityRows], tableNames: [String]) {
        present = Set(tableNames.map(Self.folded))
        let byNumber = Dictionary(entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        var tables: [Int64: String] = [:]
        for entity in entities {
            var root = entity
            var seen: Set<Int64> = [root.number]
            while root.superNumber != 0, let parent = byNumber[root.superNumber], seen.insert(parent.number).inserted { root = parent }
            tables[entity.number] = (entity.isSystemEntity ? "A" : "Z") + root.name.uppercased()
        }
        self.tables = tables
        systemTables = Set(entities.filter(\.isSystemEntity).compactMap { tables[$0.number].map(Self.folded) })
    }

    /// The table the rows of entity `number` belong in.
    func table(of number: Int64) -> String? { tables[number] }

    /// Whether rows of entity `number` in `table` are where its rows belong.
    func isInPlace(_ number: Int64, in table: String) -> Bool {
        guard let own = tables[number].map(Self.folded) else { return false }
        let here = Self.folded(table)
        if here == own { return true }
        return number < PrimaryKeyEntry.firstSystemEntityNumber && !present.contains(own) && !systemTables.contains(here)
    }

    /// A table name as SQLite compares it: ASCII letters without case.
    private static func folded(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
