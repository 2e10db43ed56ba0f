import FerryTestSupport
import Foundation
import Testing

@Suite("query of text that is not UTF-8")
struct QueryInvalidTextTests {
    /// `query` copied text that is not valid UTF-8 through: its JSON was no UTF-8 (a strict parser refused the
    /// whole document), with exit 0, where `export` refuses the value.
    @Test("query of text that is not valid UTF-8 is refused in every format (exit 3), naming the entity, object and attribute")
    func queryInvalidText() throws {
        let folder = try TestPaths.temporaryFolder("query-utf8")
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("sqlite3 '\(store)' \"UPDATE ZTASK SET ZTITLE = CAST(x'ff41c3' AS TEXT) WHERE Z_PK = 1\"").status == 0)
        for format in ["json", "ndjson", "csv", "table"] {
            let run = try FerryProcess.run(["query", store, "--entity", "Task", "--where", "Z_PK == 1", "--format", format])
            #expect(run.status == 3, "\(format): \(run.out)")
            #expect(run.err.contains("Task Z_PK 1, attribute title: text that is not valid UTF-8 cannot be shown"), "\(run.err)")
        }
        let others = try FerryProcess.run(["query", store, "--entity", "Task", "--where", "Z_PK == 2", "--format", "json"])
        #expect(others.status == 0 && (try? JSONSerialization.jsonObject(with: Data(others.out.utf8))) != nil, "\(others.err)")
    }

    /// `query` printed a blob in a String column as its base64 (the same as that text), +inf in a
    /// Double column as the text "inf", and the text 'yes' in a Boolean column as `false`, exit 0.
    @Test("query refuses in JSON and CSV a value whose storage class is not its attribute's (exit 3); the table shows it raw",
          arguments: [("ZTITLE = x'00ff'", "title: a blob is not"), ("ZPRIORITY = 'yes'", "priority: text is not"),
                      ("ZPRIORITY = 1e999", "priority: a real (inf) is not")])
    func queryMisfitValue(change: String, message: String) throws {
        let folder = try TestPaths.temporaryFolder("query-misfit")
        let store = try ExportTestSupport.workspace2Store(folder)
        #expect(try ExportTestSupport.shell("sqlite3 '\(store)' \"UPDATE ZTASK SET \(change) WHERE Z_PK = 1\"").status == 0)
        for format in ["json", "ndjson", "csv"] {
            let run = try FerryProcess.run(["query", store, "--entity", "Task", "--where", "Z_PK == 1", "--format", format])
            #expect(run.status == 3, "\(format): \(run.out)")
            #expect(run.err.contains("Task Z_PK 1, attribute \(message) a value of its type"), "\(run.err)")
        }
        let table = try FerryProcess.run(["query", store, "--entity", "Task", "--where", "Z_PK == 1", "--format", "table"])
        #expect(table.status == 0, "\(table.err)")
    }
}
