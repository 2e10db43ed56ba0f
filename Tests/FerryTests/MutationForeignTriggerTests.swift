import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A trigger Core Data did not write runs inside every change of its table: `update` of one
/// task with a store's `AFTER UPDATE ON ZTASK` trigger deleted every upload and renamed every
/// tag, exit 0, "1 object updated". `update` and `delete` now refuse such a store before writing
/// (exit 3, naming the trigger), their dry runs too; Core Data's own `Z_DA_` triggers run as before.
@Suite("update and delete refuse a store with a trigger Core Data did not write")
struct MutationForeignTriggerTests {
    private static let evil = "CREATE TRIGGER evil AFTER UPDATE ON ZTASK BEGIN DELETE FROM ZUPLOAD; UPDATE ZTAG SET ZNAME = ZNAME || '!'; END"

    @Test("update, delete and their dry runs exit 3 naming the trigger, and the store stays byte for byte as it was", arguments: [
        ["update", "--entity", "Task", "--where", "Z_PK == 4", "--set", "priority=1"],
        ["update", "--entity", "Task", "--where", "Z_PK == 4", "--set", "priority=1", "--dry-run"],
        ["delete", "--entity", "Tag", "--where", "name == 'work'"],
        ["delete", "--entity", "Tag", "--where", "name == 'work'", "--dry-run"],
    ])
    func refused(arguments: [String]) throws {
        let folder = try TestPaths.temporaryFolder("mutation-foreign-trigger")
        let path = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        try database.execute(Self.evil)
        try database.close()
        let before = try TestPaths.read(path)
        let run = try FerryProcess.run([arguments[0], path] + arguments.dropFirst())
        #expect(run.status == 3, "\(run.err)")
        #expect(run.err.contains("holds triggers Core Data did not write") && run.err.contains("trigger evil on ZTASK is not Core Data's"),
                "\(run.err)")
        #expect(try TestPaths.read(path) == before)
    }
}
