import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerify
import FerryVerifyTestSupport
import Testing

/// What Core Data writes beside the values, held to what every real store has (see the corpus
/// tests): `Z_OPT` an integer from 1 on every row, `Z_SUPER` each entity's parent (0 for a root),
/// and a unique index behind every uniqueness constraint. Stores written by Ferry, then broken
/// with plain SQL.
@Suite("verify holds Z_OPT, Z_SUPER and the unique indexes to what Core Data writes")
struct VerifyCoreDataBookkeepingTests {
    private func verify(_ path: String, model: ManagedObjectModel) throws -> VerificationReport {
        try StoreVerifier(path: path, model: .model(model)).verify()
    }

    /// The one failure of a report broken in one place.
    private func onlyFailure(_ report: VerificationReport) throws -> VerificationFailure {
        #expect(report.failures.count == 1, "\(report.failures)")
        return try #require(report.failures.first)
    }

    @Test("a Z_OPT that is NULL, 0, negative, a real or text fails, naming the table, the column and the row",
          arguments: [("NULL", "NULL"), ("0", "0"), ("-1", "-1"), ("1.5", "1.5"), ("'one'", "'one'"), ("X'01'", "X'01'")])
    func badVersion(value: String, shown: String) throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-opt"))
        let broken = try VerifyStores.broken(path, "opt", "UPDATE ZTASK SET Z_OPT = \(value) WHERE Z_PK = 2")
        let failure = try onlyFailure(try verify(broken, model: VerifyStores.workspace3))
        #expect(failure.check == "optimistic-lock" && failure.subject == "Task")
        #expect(failure.message == "1 row(s): ZTASK.Z_OPT is not an optimistic-lock version Core Data writes "
            + "(an integer from 1: 1 after the first save, one more on each update)")
        #expect(failure.samples == [FailureSample(primaryKey: 2, values: ["Z_OPT": shown])])
    }

    @Test("a second Z_MODELCACHE row fails: every reader takes the first, so another model there went unseen")
    func secondModelCacheRow() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-model-cache"))
        let broken = try VerifyStores.broken(path, "model-cache", "INSERT INTO Z_MODELCACHE (Z_CONTENT) SELECT Z_CONTENT FROM Z_MODELCACHE")
        let failure = try onlyFailure(try verify(broken, model: VerifyStores.workspace3))
        #expect(failure.check == "model-cache" && failure.message == "Z_MODELCACHE has 2 rows; Core Data keeps one model there")
    }

    @Test("versions bumped by updates pass, and every row of a hierarchy's table is held to it")
    func versionsFromOne() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-opt"))
        let bumped = try VerifyStores.broken(path, "bumped", "UPDATE ZTASK SET Z_OPT = Z_PK * 1000; UPDATE ZTAG SET Z_OPT = 9223372036854775807")
        let report = try verify(bumped, model: VerifyStores.workspace3)
        #expect(report.passed, "\(report.failures)")
        let shelf = try VerifyStores.makeInheritance(in: try TestPaths.temporaryFolder("verify-opt"))
        // Item 2 is a Book: the row of a sub-entity, in its root's table.
        let failure = try onlyFailure(try verify(try VerifyStores.broken(shelf, "book", "UPDATE ZITEM SET Z_OPT = 0 WHERE Z_PK = 2"),
                                                 model: VerifyStores.inheritance))
        #expect("\(failure.check) \(failure.subject) \(failure.count)" == "optimistic-lock Item 1")
        #expect(failure.message.hasPrefix("1 row(s): ZITEM.Z_OPT is not"))
    }

    @Test("a Z_SUPER that is not the parent's Z_ENT, or not 0 for a root entity, fails naming the entity", arguments: [
        // Item 1, its sub-entity Book 2, Note 3, Pin 4 (Core Data's numbering).
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 0 WHERE Z_NAME = 'Book'", "z-super Book",
         "Z_PRIMARYKEY.Z_SUPER of entity Book (Z_ENT 2) is 0, not 1, the Z_ENT of its parent Item"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 3 WHERE Z_NAME = 'Book'", "z-super Book",
         "Z_PRIMARYKEY.Z_SUPER of entity Book (Z_ENT 2) is 3, not 1, the Z_ENT of its parent Item"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 1 WHERE Z_NAME = 'Note'", "z-super Note",
         "Z_PRIMARYKEY.Z_SUPER of entity Note (Z_ENT 3) is 1, not 0, as Note is a root entity"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = NULL WHERE Z_NAME = 'Pin'", "z-super Pin",
         "Z_PRIMARYKEY.Z_SUPER of entity Pin (Z_ENT 4) is NULL, not 0, as Pin is a root entity"),
        ("UPDATE Z_PRIMARYKEY SET Z_SUPER = 'Item' WHERE Z_NAME = 'Book'", "z-super Book",
         "Z_PRIMARYKEY.Z_SUPER of entity Book (Z_ENT 2) is 'Item', not 1, the Z_ENT of its parent Item"),
    ])
    func wrongSuper(sql: String, expected: String, message: String) throws {
        let path = try VerifyStores.makeInheritance(in: try TestPaths.temporaryFolder("verify-super"))
        let failure = try onlyFailure(try verify(try VerifyStores.broken(path, "super", sql), model: VerifyStores.inheritance))
        #expect("\(failure.check) \(failure.subject)" == expected)
        #expect(failure.message == message)
    }

    @Test("a sub-entity without a Z_PRIMARYKEY row fails (the root's missing row is the Z_MAX check's)")
    func missingSubentityRow() throws {
        let path = try VerifyStores.makeInheritance(in: try TestPaths.temporaryFolder("verify-super"))
        let report = try verify(try VerifyStores.broken(path, "no-book", "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Book'"),
                                model: VerifyStores.inheritance)
        let failure = try #require(report.failures.first { $0.check == "z-super" })
        #expect(failure.subject == "Book" && failure.message == "Z_PRIMARYKEY has no row for entity Book, a sub-entity of Item")
        let noRoot = try verify(try VerifyStores.broken(path, "no-pin", "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Pin'"),
                                model: VerifyStores.inheritance)
        let checks = Set(noRoot.failures.map { "\($0.check) \($0.subject)" })
        #expect(checks.contains("z-max Pin") && !checks.contains { $0.hasPrefix("z-super") }, "\(checks)")
    }

    @Test("entities numbered otherwise than Core Data numbers the model fail, though every row, key and join row agrees with Z_PRIMARYKEY's names")
    func renumberedEntities() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-numbering"))
        #expect(try verify(path, model: VerifyStores.workspace3).passed)
        // Tag 1 and Task 2 swapped everywhere: Z_PRIMARYKEY, Z_ENT of the rows, the join table's names.
        let swapped = try VerifyStores.broken(path, "swapped", """
            UPDATE Z_PRIMARYKEY SET Z_ENT = 10 WHERE Z_ENT = 1; UPDATE Z_PRIMARYKEY SET Z_ENT = 1 WHERE Z_ENT = 2;
            UPDATE Z_PRIMARYKEY SET Z_ENT = 2 WHERE Z_ENT = 10; UPDATE ZTAG SET Z_ENT = 2; UPDATE ZTASK SET Z_ENT = 1;
            CREATE TABLE Z_1TAGS (Z_1TASKS INTEGER, Z_2TAGS INTEGER, PRIMARY KEY (Z_1TASKS, Z_2TAGS));
            INSERT INTO Z_1TAGS SELECT Z_2TASKS, Z_1TAGS FROM Z_1TASKS; DROP TABLE Z_1TASKS;
            CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1TASKS)
            """)
        let report = try verify(swapped, model: VerifyStores.workspace3)
        #expect(report.failures.map { "\($0.check) \($0.subject)" } == ["entity-numbering Tag", "entity-numbering Task"], "\(report.failures)")
        #expect(report.failures.first?.message == "Core Data numbers entity Tag 1 in model Workspace 3, but Z_PRIMARYKEY numbers it 2 "
            + "(row Z_ENT 1 is named Task): Core Data would read the rows of Z_ENT 1 as Tag and take its keys from that row's Z_MAX, "
            + "already used by another entity's rows")
        // A row named for no entity of the model is named, beside the schema Ferry then cannot find.
        let renamed = try verify(try VerifyStores.broken(path, "renamed", "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Taskx' WHERE Z_NAME = 'Task'"),
                                 model: VerifyStores.workspace3)
        #expect(renamed.failures.map { "\($0.check) \($0.subject)" } == ["entity-numbering Task", "schema store"], "\(renamed.failures)")
        // Tag moved to a number no entity has: Core Data finds neither its rows nor a Z_MAX.
        let moved = try verify(try VerifyStores.broken(path, "moved", "UPDATE Z_PRIMARYKEY SET Z_ENT = 9 WHERE Z_ENT = 1; UPDATE ZTAG SET Z_ENT = 9"),
                               model: VerifyStores.workspace3)
        #expect(moved.failures.first { $0.check == "entity-numbering" }?.message == "Core Data numbers entity Tag 1 in model Workspace 3, "
            + "but Z_PRIMARYKEY numbers it 9 (it has no row Z_ENT 1): Core Data would find none of its rows, which are of Z_ENT 9, "
            + "and no Z_MAX to take its keys from", "\(moved.failures)")
    }

    @Test("a uniqueness constraint's unique index that is missing, not unique, partial or over other columns fails", arguments: [
        ("DROP INDEX Z_Task_UNIQUE_taskID", "is missing"),
        ("DROP INDEX Z_Task_UNIQUE_taskID; CREATE INDEX Z_Task_UNIQUE_taskID ON ZTASK (ZTASKID COLLATE BINARY ASC)", "is not UNIQUE"),
        ("DROP INDEX Z_Task_UNIQUE_taskID; CREATE UNIQUE INDEX Z_Task_UNIQUE_taskID ON ZTASK (ZTASKID) WHERE ZTASKID > 2",
         "is partial (it holds only the rows its WHERE clause picks)"),
        ("DROP INDEX Z_Task_UNIQUE_taskID; CREATE UNIQUE INDEX Z_Task_UNIQUE_taskID ON ZTASK (ZTASKID, ZTITLE)",
         "indexes ZTASK (ZTASKID, ZTITLE) instead"),
    ])
    func brokenUniqueIndex(sql: String, problem: String) throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-unique"))
        let failure = try onlyFailure(try verify(try VerifyStores.broken(path, "unique", sql), model: VerifyStores.workspace3))
        #expect("\(failure.check) \(failure.subject)" == "unique-index Task")
        #expect(failure.message == "unique index Z_Task_UNIQUE_taskID on ZTASK (ZTASKID) \(problem): "
            + "the store does not enforce the uniqueness constraint, and Core Data can save duplicates")
    }

    @Test("another unique index over the constraint's columns enforces it all the same")
    func uniqueIndexOfAnotherName() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-unique"))
        let renamed = try VerifyStores.broken(path, "renamed", "DROP INDEX Z_Task_UNIQUE_taskID; CREATE UNIQUE INDEX TASK_ID ON ZTASK (ZTASKID)")
        let report = try verify(renamed, model: VerifyStores.workspace3)
        #expect(report.passed, "\(report.failures)")
    }

    @Test("duplicates behind a dropped unique index fail both the values and the index")
    func duplicatesWithoutIndex() throws {
        let path = try VerifyStores.makeWorkspace3(in: try TestPaths.temporaryFolder("verify-unique"))
        let report = try verify(try VerifyStores.broken(path, "duplicate", "DROP INDEX Z_Task_UNIQUE_taskID; UPDATE ZTASK SET ZTASKID = 1 WHERE Z_PK = 2"),
                                model: VerifyStores.workspace3)
        #expect(Set(report.failures.map { "\($0.check) \($0.subject)" }) == ["unique-constraint Task.taskID", "unique-index Task"])
    }
}
