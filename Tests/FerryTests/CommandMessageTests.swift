import FerryTestSupport
import Foundation
import Testing

/// What the command says when something is wrong or left out, as a user reads it.
extension CommandLineTests {
    private static let model = "Migrations/Workspace.xcdatamodeld"

    @Test("query refuses a negative --limit or --offset as a usage error")
    func negativeLimit() throws {
        let limit = try ferry("query", "nothing.sqlite", "--entity", "Task", "--limit", "-1")
        #expect(limit.status == 2 && limit.err.contains("--limit takes 0 or more, not -1"))
        #expect(try ferry("query", "nothing.sqlite", "--entity", "Task", "--offset", "-2").status == 2)
    }
}
