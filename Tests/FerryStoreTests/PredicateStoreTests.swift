import FerryModel
import FerryStore
import FerryTestSupport
import FoundationEssentials
import Testing

/// A Workspace 3 store with generated tags, tasks and uploads, shared by the tests of this suite.
final class PredicateWorkspaceStore: Sendable {
    static let shared = Result { try PredicateWorkspaceStore() }

    let path: String
    let compiler: PredicateCompiler
    static let tagNames = ["red", "Green", "blue", "Élan", "crème", "100%", "a_b", "x[1]"]

    init() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        let model = try #require(bundle.version(named: "Workspace 3"))
        let layout = try StoreLayout(model: model)
        compiler = PredicateCompiler(model: model, layout: layout)
        path = try TestPaths.temporaryFolder("predicates") + "/Workspace.sqlite"
        let writer = try CoreDataStoreWriter.create(at: path, model: model,
                                                    versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [])
        let tags = try writer.inserter(for: "Tag")
        for name in Self.tagNames { try tags.insert([.text(name)]) }
        let tasks = try writer.inserter(for: "Task")
        for number in 1...120 {
            var row = [StoreValue](repeating: .null, count: tasks.columns.count)
            func set(_ name: String, _ value: StoreValue) throws {
                row[try #require(tasks.columnIndex(for: .attribute(entity: "Task", name: name)))] = value
            }
            try set("taskID", .integer(Int64(number)))
            try set("title", .text(number % 4 == 0 ? "Café \(number)" : number % 4 == 1 ? "TASK \(number)" : "Task \(number)"))
            if number % 7 != 0 { try set("notes", .text(number % 2 == 0 ? "note with 100% effort" : "plain_note")) }
            if number % 11 != 0 { try set("priority", .integer(Int64(number % 5))) }
            try set("isComplete", .integer(number % 3 == 0 ? 1 : 0))
            if number % 13 != 0 { try set("dueDate", .real(410_227_200 + Double(number) * 86_400)) }
            try set("remindAt", .real(410_227_200 + Double(number % 10) * 86_400 * 12))
            try tasks.insert(row)
        }
        let uploads = try writer.inserter(for: "Upload")
        for number in 1...300 {
            var row = [StoreValue](repeating: .null, count: uploads.columns.count)
            func set(_ role: ColumnRole, _ value: StoreValue) throws {
                row[try #require(uploads.columnIndex(for: role))] = value
            }
            func attribute(_ name: String) -> ColumnRole { .attribute(entity: "Upload", name: name) }
            try set(attribute("byteCount"), .integer(Int64(number * 1000)))
            try set(attribute("createdAt"), .real(410_227_200 + Double(number) * 3_600))
            if number % 9 != 0 { try set(attribute("fileName"), .text(number % 2 == 0 ? "file\(number).png" : "IMG_\(number).JPG")) }
            try set(attribute("isFinished"), .integer(Int64(number % 2)))
            try set(attribute("kind"), .integer(Int64(number % 4)))
            try set(attribute("uploadID"), .blob((0..<16).map { UInt8(($0 * 7 + number) % 256) }))
            if number % 10 < 8 { try set(.toOne(entity: "Upload", relationship: "task"), .integer(Int64(number % 97 + 1))) }
            try uploads.insert(row)
        }
        try writer.finish()
        // Task.tags through the join table (tasks whose number is a multiple of 6 have none).
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let join = try database.prepare("INSERT INTO Z_1TASKS (Z_1TAGS, Z_2TASKS) VALUES (?, ?)")
        for task in 1...120 where task % 6 != 0 {
            for tag in 1...Self.tagNames.count where (task + tag) % 4 == 0 || tag == task % 8 + 1 {
                try join.bind(Int64(tag), at: 1)
                try join.bind(Int64(task), at: 2)
                try join.run()
                try join.reset()
            }
        }
    }

    func database() throws -> SQLiteDatabase { try SQLiteDatabase(path: path, mode: .readWrite) }

    /// Primary keys a hand-written query returns, in order.
    func keys(_ sql: String) throws -> [Int64] {
        let statement = try database().prepare(sql)
        var keys: [Int64] = []
        while try statement.step() { keys.append(statement.int64(at: 0)) }
        return keys
    }

    /// Primary keys the predicate selects, in Z_PK order.
    func keys(_ format: String, entity: String, variables: [String: PredicateValue] = [:]) throws -> [Int64] {
        let query = PredicateQuery(entity: entity, predicate: try FetchPredicate(format: format))
        return try query.compile(with: compiler, variables: variables).primaryKeys(on: database())
    }
}

@Suite struct PredicateStoreTests {
    func store() throws -> PredicateWorkspaceStore { try PredicateWorkspaceStore.shared.get() }

    /// (entity, predicate, the same selection in hand-written SQL over the store's tables).
    static let cases: [(String, String, String)] = [
        ("Task", "priority == 2", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY = 2"),
        ("Task", "priority = '2'", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY = 2"),
        ("Task", "priority != 2", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY IS NOT 2"),
        ("Task", "priority <> 2 AND priority != nil", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY <> 2"),
        ("Task", "priority < 2", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY < 2"),
        ("Task", "priority =< 2", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY <= 2"),
        ("Task", "priority > 3", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY > 3"),
        ("Task", "priority => 3", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY >= 3"),
        ("Task", "3 < priority", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY > 3"),
        ("Task", "priority BETWEEN {1, 3}", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY BETWEEN 1 AND 3"),
        ("Task", "priority IN {0, 4}", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY IN (0, 4)"),
        ("Task", "priority == nil", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY IS NULL"),
        ("Task", "NOT priority == 1", "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY IS NOT 1"),
        ("Task", "!(priority == 1 || priority == 2) && isComplete == YES",
         "SELECT Z_PK FROM ZTASK WHERE ZPRIORITY IS NOT 1 AND ZPRIORITY IS NOT 2 AND ZISCOMPLETE = 1"),
        ("Task", "isComplete == NO OR isComplete = 1 AND priority == 0",
         "SELECT Z_PK FROM ZTASK WHERE ZISCOMPLETE = 0 OR (ZISCOMPLETE = 1 AND ZPRIORITY = 0)"),
        ("Task", "isComplete == 1", "SELECT Z_PK FROM ZTASK WHERE ZISCOMPLETE = 1"),
        ("Task", "title == 'Task 2'", "SELECT Z_PK FROM ZTASK WHERE ZTITLE = 'Task 2'"),
        ("Task", "title ==[c] 'task 5'", "SELECT Z_PK FROM ZTASK WHERE lower(ZTITLE) = 'task 5'"),
        ("Task", "title BEGINSWITH 'Task'", "SELECT Z_PK FROM ZTASK WHERE substr(ZTITLE, 1, 4) = 'Task'"),
        ("Task", "title BEGINSWITH[c] 'task'", "SELECT Z_PK FROM ZTASK WHERE lower(substr(ZTITLE, 1, 4)) = 'task'"),
        ("Task", "title ENDSWITH '7'", "SELECT Z_PK FROM ZTASK WHERE substr(ZTITLE, -1) = '7'"),
        ("Task", "title CONTAINS 'é 1'", "SELECT Z_PK FROM ZTASK WHERE instr(ZTITLE, 'é 1') > 0"),
        ("Task", "title CONTAINS[cd] 'CAFE 1'", "SELECT Z_PK FROM ZTASK WHERE instr(ZTITLE, 'Café 1') > 0"),
        ("Task", "title CONTAINS[c] 'CAFE'", "SELECT Z_PK FROM ZTASK WHERE 0"),
        ("Task", "title LIKE 'Task 1?'", "SELECT Z_PK FROM ZTASK WHERE ZTITLE GLOB 'Task 1[0-9]'"),
        ("Task", "title LIKE[c] '*K 1*'", "SELECT Z_PK FROM ZTASK WHERE lower(ZTITLE) GLOB '*k 1*'"),
        ("Task", "notes LIKE '*100%*'", "SELECT Z_PK FROM ZTASK WHERE instr(ZNOTES, '100%') > 0"),
        ("Task", "notes LIKE 'plain_*'", "SELECT Z_PK FROM ZTASK WHERE ZNOTES = 'plain_note'"),
        ("Task", "notes LIKE '*%'", "SELECT Z_PK FROM ZTASK WHERE 0"),
        ("Task", "title MATCHES 'Task [0-9]+'", "SELECT Z_PK FROM ZTASK WHERE substr(ZTITLE, 1, 5) = 'Task '"),
        ("Task", "title MATCHES[c] 'task [0-9]+'", "SELECT Z_PK FROM ZTASK WHERE lower(substr(ZTITLE, 1, 5)) = 'task '"),
        ("Task", "title MATCHES[d] 'Cafe [0-9]*0'", "SELECT Z_PK FROM ZTASK WHERE ZTITLE GLOB 'Café *0'"),
        // The pattern is folded as the text is: a pattern with a diacritic matched nothing.
        ("Task", "title MATCHES[d] 'Café [0-9]*0'", "SELECT Z_PK FROM ZTASK WHERE ZTITLE GLOB 'Café *0'"),
        ("Task", "title MATCHES[cd] 'CAFÉ [0-9]*0'", "SELECT Z_PK FROM ZTASK WHERE ZTITLE GLOB 'Café *0'"),
        ("Task", "title MATCHES 'Task'", "SELECT Z_PK FROM ZTASK WHERE 0"),
        ("Task", "notes == nil", "SELECT Z_PK FROM ZTASK WHERE ZNOTES IS NULL"),
        ("Task", "notes != nil AND NOT notes CONTAINS 'plain'", "SELECT Z_PK FROM ZTASK WHERE ZNOTES LIKE 'note%'"),
        ("Task", "NOT notes CONTAINS 'plain'", "SELECT Z_PK FROM ZTASK WHERE ZNOTES IS NULL OR ZNOTES LIKE 'note%'"),
        ("Task", "dueDate > CAST('2014-03-01T00:00:00Z', 'NSDate')",
         "SELECT Z_PK FROM ZTASK WHERE ZDUEDATE > 410227200 + 59 * 86400"),
        ("Task", "dueDate <= CAST(415411200.0, 'NSDate')", "SELECT Z_PK FROM ZTASK WHERE ZDUEDATE <= 415411200"),
        ("Task", "dueDate BETWEEN {CAST('2014-01-10', 'NSDate'), CAST('2014-01-20', 'NSDate')}",
         "SELECT Z_PK FROM ZTASK WHERE ZDUEDATE BETWEEN 410227200 + 9 * 86400 AND 410227200 + 19 * 86400"),
        ("Task", "dueDate > 415411200", "SELECT Z_PK FROM ZTASK WHERE ZDUEDATE > 415411200"),
        ("Task", "dueDate == nil", "SELECT Z_PK FROM ZTASK WHERE ZDUEDATE IS NULL"),
        ("Task", "dueDate < remindAt", "SELECT Z_PK FROM ZTASK WHERE ZDUEDATE < ZREMINDAT"),
        ("Task", "ANY tags.name == 'red'",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK IN (SELECT Z_2TASKS FROM Z_1TASKS JOIN ZTAG ON ZTAG.Z_PK = Z_1TAGS WHERE ZNAME = 'red')"),
        ("Task", "SOME tags.name ==[cd] 'ELAN'",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS = 4)"),
        ("Task", "ANY tags.name IN[c] {'GREEN', 'BLUE'}",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS IN (2, 3))"),
        ("Task", "NONE tags.name BEGINSWITH 'r'",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK NOT IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS = 1)"),
        ("Task", "ALL tags.name != 'red'",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK NOT IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS = 1)"),
        ("Task", "ALL tags.name LIKE '*e*'",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK NOT IN (SELECT Z_2TASKS FROM Z_1TASKS JOIN ZTAG ON ZTAG.Z_PK = Z_1TAGS WHERE instr(ZNAME, 'e') = 0)"),
        ("Task", "ANY tags.name LIKE 'x[1]'",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS = 8)"),
        ("Task", "ANY tags.name LIKE '100%' OR ANY tags.name == 'a_b'",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS IN (6, 7))"),
        ("Task", "tags.@count == 0", "SELECT Z_PK FROM ZTASK WHERE Z_PK NOT IN (SELECT Z_2TASKS FROM Z_1TASKS)"),
        ("Task", "attachments.@count > 3",
         "SELECT Z_PK FROM ZTASK WHERE (SELECT count(*) FROM ZUPLOAD WHERE ZUPLOAD.ZTASK = ZTASK.Z_PK) > 3"),
        ("Task", "attachments.@count == 0 AND priority == 1",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK NOT IN (SELECT ZTASK FROM ZUPLOAD WHERE ZTASK IS NOT NULL) AND ZPRIORITY = 1"),
        ("Task", "ANY attachments.byteCount > 250000",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK IN (SELECT ZTASK FROM ZUPLOAD WHERE ZBYTECOUNT > 250000)"),
        ("Task", "ALL attachments.isFinished == YES",
         "SELECT Z_PK FROM ZTASK WHERE Z_PK NOT IN (SELECT ZTASK FROM ZUPLOAD WHERE ZTASK IS NOT NULL AND ZISFINISHED = 0)"),
        ("Upload", "task.priority == 3",
         "SELECT u.Z_PK FROM ZUPLOAD u JOIN ZTASK t ON t.Z_PK = u.ZTASK WHERE t.ZPRIORITY = 3"),
        ("Upload", "task.title BEGINSWITH 'Caf' AND task.priority >= 2 AND fileName ENDSWITH[c] '.jpg'",
         "SELECT u.Z_PK FROM ZUPLOAD u JOIN ZTASK t ON t.Z_PK = u.ZTASK WHERE t.ZTITLE LIKE 'Caf%' AND t.ZPRIORITY >= 2 AND u.ZFILENAME LIKE '%.jpg'"),
        ("Upload", "task == nil", "SELECT Z_PK FROM ZUPLOAD WHERE ZTASK IS NULL"),
        ("Upload", "task != nil AND task.notes == nil",
         "SELECT u.Z_PK FROM ZUPLOAD u JOIN ZTASK t ON t.Z_PK = u.ZTASK WHERE t.ZNOTES IS NULL"),
        ("Upload", "ANY task.tags.name == 'blue'",
         "SELECT Z_PK FROM ZUPLOAD WHERE ZTASK IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS = 3)"),
        ("Upload", "task.attachments.@count >= 4",
         "SELECT u.Z_PK FROM ZUPLOAD u WHERE (SELECT count(*) FROM ZUPLOAD o WHERE o.ZTASK = u.ZTASK) >= 4"),
        ("Upload", "kind IN {1, 3} AND createdAt < CAST(410227200, 'NSDate') + 0", "SELECT Z_PK FROM ZUPLOAD WHERE 0"),
        ("Upload", "fileName LIKE[c] 'img_1*'", "SELECT Z_PK FROM ZUPLOAD WHERE ZFILENAME LIKE 'IMG!_1%' ESCAPE '!'"),
        ("Upload", "byteCount BETWEEN {'1000', 5000.5}", "SELECT Z_PK FROM ZUPLOAD WHERE ZBYTECOUNT BETWEEN 1000 AND 5000"),
        ("Tag", "TRUEPREDICATE", "SELECT Z_PK FROM ZTAG"),
        ("Tag", "FALSEPREDICATE OR name ==[d] 'creme'", "SELECT Z_PK FROM ZTAG WHERE Z_PK = 5"),
        ("Tag", "ANY tasks.priority == 4 AND name MATCHES '[a-z]+'",
         "SELECT Z_PK FROM ZTAG WHERE Z_PK IN (SELECT Z_1TAGS FROM Z_1TASKS JOIN ZTASK ON ZTASK.Z_PK = Z_2TASKS WHERE ZPRIORITY = 4) AND Z_PK IN (1, 3)"),
    ]

    @Test(arguments: cases.indices) func predicateSelectsWhatHandWrittenSQLSelects(index: Int) throws {
        let (entity, format, sql) = Self.cases[index]
        if format.contains("+ 0") {
            // Arithmetic is not part of the subset: a clear syntax error.
            #expect(throws: FetchPredicateError.self) { try FetchPredicate(format: format) }
            return
        }
        let store = try store()
        let expected = try store.keys(sql + " ORDER BY 1")
        let actual = try store.keys(format, entity: entity)
        #expect(actual == expected, "\(format)")
        if !sql.hasSuffix("WHERE 0") {
            #expect(!expected.isEmpty, "the generated data should make \(format) select something")
        }
    }

    @Test func uuidsCompareAsBlobs() throws {
        let store = try store()
        let bytes = (0..<16).map { UInt8(($0 * 7 + 42) % 256) }
        let text = try #require(UUIDBytes(bytes)).description
        // Uploads 42 and 298 (42 + 256) were given the same bytes.
        #expect(try store.keys("uploadID == '\(text)'", entity: "Upload") == [42, 298])
        #expect(try store.keys("uploadID IN {'\(text.lowercased())', nil}", entity: "Upload") == [42, 298])
    }

    @Test func variablesAreSubstitutedAndBound() throws {
        let store = try store()
        let variables: [String: PredicateValue] = [
            "TAG": .string("red"), "LEVELS": .list([.integer(1), .integer(2)]), "SINCE": .date(410_227_200 + 50 * 86_400),
            "RANGE": .list([.integer(10_000), .integer(20_000)]),
        ]
        #expect(try store.keys("ANY tags.name == $TAG AND priority IN $LEVELS AND dueDate >= $SINCE", entity: "Task",
                               variables: variables)
            == store.keys("""
                SELECT Z_PK FROM ZTASK WHERE Z_PK IN (SELECT Z_2TASKS FROM Z_1TASKS WHERE Z_1TAGS = 1)
                AND ZPRIORITY IN (1, 2) AND ZDUEDATE >= 410227200 + 50 * 86400 ORDER BY 1
                """))
        #expect(try store.keys("byteCount BETWEEN $RANGE", entity: "Upload", variables: variables) == Array(10...20))
        let missing = try #require(throws: FetchPredicateError.self) {
            try store.keys("title == $NOPE", entity: "Task", variables: variables)
        }
        #expect(missing == .missingVariable("NOPE"))
    }

    @Test func queriesSortLimitAndOffset() throws {
        let store = try store()
        let query = PredicateQuery(entity: "Upload", predicate: try FetchPredicate(format: "task != nil"),
                                   sort: try FetchSort.parse("-task.priority, fileName"), limit: 10, offset: 5)
        let compiled = try query.compile(with: store.compiler)
        #expect(compiled.columns == Array(store.compiler.layout.columns(forEntity: "Upload").dropFirst(3)))
        #expect(compiled.columns.first?.name == "ZBYTECOUNT")
        let expected = try store.keys("""
            SELECT u.Z_PK FROM ZUPLOAD u JOIN ZTASK t ON t.Z_PK = u.ZTASK
            ORDER BY t.ZPRIORITY DESC, u.ZFILENAME ASC, u.Z_PK ASC LIMIT 10 OFFSET 5
            """)
        #expect(try compiled.primaryKeys(on: store.database()) == expected)
        #expect(expected.count == 10)
        let statement = try compiled.prepare(on: store.database())
        #expect(try statement.step())
        #expect(statement.int64(at: 1) == 3)
        #expect(statement.columnCount == Int32(2 + compiled.columns.count))

        let all = try PredicateQuery(entity: "Task", sort: [FetchSort(keyPath: ["priority"])], offset: 118)
            .compile(with: store.compiler).primaryKeys(on: store.database())
        #expect(try all == store.keys("SELECT Z_PK FROM ZTASK ORDER BY ZPRIORITY, Z_PK LIMIT -1 OFFSET 118"))
        #expect(throws: FetchPredicateError.self) {
            try PredicateQuery(entity: "Task", sort: [FetchSort(keyPath: ["tags", "name"])]).compile(with: store.compiler)
        }
    }

    @Test(arguments: [
        ("Task", "time > 3", FetchPredicateError.unknownKey(key: "time", entity: "Task", suggestion: "title")),
        ("Upload", "task.nope == 3", FetchPredicateError.unknownKey(key: "nope", entity: "Task", suggestion: "notes")),
        ("Nope", "TRUEPREDICATE", FetchPredicateError.unknownEntity("Nope")),
    ])
    func unknownNamesAreErrors(entity: String, format: String, error: FetchPredicateError) throws {
        let store = try store()
        #expect(throws: error) { try store.compiler.compile(format: format, entity: entity) }
    }

    @Test(arguments: [
        "priority > 'abc'", "title == 3", "title > 2.5", "isComplete == 2", "isComplete == 'YES'", "dueDate > '2014-01-01'",
        "priority == CAST(0, 'NSDate')", "priority ==[c] 2", "priority CONTAINS '1'", "title BEGINSWITH 1",
        "priority < nil", "priority == {1, 2}", "priority BETWEEN {1}", "priority IN 3", "dueDate < title",
        "attachments.@count > 'many'", "title.length == 1",
    ])
    func typeErrors(format: String) throws {
        let store = try store()
        let error = try #require(throws: FetchPredicateError.self) { try store.compiler.compile(format: format, entity: "Task") }
        guard case .typeMismatch(let keyPath, let reason) = error else {
            Issue.record("expected a type error for \(format), got \(error)")
            return
        }
        #expect(!keyPath.isEmpty && !reason.isEmpty)
    }

    @Test(arguments: [
        "tags.name == 'red'", "ANY title == 'x'", "ANY tags == nil", "ANY tags.@count > 1", "ANY tags.tasks.title == 'x'",
        "1 == 1", "'x' CONTAINS title", "title.@count > 1", "task == 1",
    ])
    func unsupportedConstructsAreErrors(format: String) throws {
        let store = try store()
        let entity = format.hasPrefix("task") ? "Upload" : "Task"
        let error = try #require(throws: FetchPredicateError.self) { try store.compiler.compile(format: format, entity: entity) }
        #expect(!error.description.isEmpty)
    }

    @Test func invalidRegularExpressionsAreErrors() throws {
        let store = try store()
        let error = try #require(throws: FetchPredicateError.self) {
            try store.compiler.compile(format: "title MATCHES '(unclosed'", entity: "Task")
        }
        guard case .invalidPattern(let pattern, _) = error else { Issue.record("got \(error)"); return }
        #expect(pattern == "(unclosed")
    }

    @Test func valuesNeverReachTheSQLText() throws {
        let store = try store()
        let hostile = "x'); DROP TABLE ZUPLOAD; --"
        let compiled = try store.compiler.compile(format: "fileName == \"\(hostile)\" OR fileName LIKE[c] \"\(hostile)*\"",
                                                  entity: "Upload")
        #expect(!compiled.whereClause.contains("DROP"))
        #expect(compiled.parameters == [.text(hostile), .text(hostile.lowercased() + "*")])
        #expect(try store.keys("fileName == \"\(hostile)\"", entity: "Upload").isEmpty)
        #expect(try store.keys("fileName MATCHES \"x'\\\\); DROP TABLE ZUPLOAD; --\"", entity: "Upload").isEmpty)
        let patternError = try #require(throws: FetchPredicateError.self) {
            try store.keys("fileName MATCHES \"\(hostile)\"", entity: "Upload")
        }
        #expect({ if case .invalidPattern(hostile, _) = patternError { true } else { false } }())
        #expect(try store.keys("SELECT count(*) FROM ZUPLOAD") == [300])

        // Keys are looked up in the model; text that is not a key never becomes a name in SQL.
        let viaKey = FetchPredicate.comparison(Comparison(.keyPath(["a; DROP"]), .equal, .value(.integer(1))))
        #expect(throws: FetchPredicateError.unknownKey(key: "a; DROP", entity: "Upload")) {
            try store.compiler.compile(viaKey, entity: "Upload")
        }
        let sortInjection = PredicateQuery(entity: "Upload", sort: [FetchSort(keyPath: ["ZFILENAME; DROP TABLE ZTASK"])])
        #expect(throws: FetchPredicateError.unknownKey(key: "ZFILENAME; DROP TABLE ZTASK", entity: "Upload")) {
            try sortInjection.compile(with: store.compiler)
        }
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(format: "a; DROP TABLE ZUPLOAD == 1") }
        #expect(try store.keys("SELECT count(*) FROM sqlite_master WHERE name IN ('ZUPLOAD', 'ZTASK')") == [2])
    }
}
