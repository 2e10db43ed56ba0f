import FerryModel
import FerryStore
import FerryTestSupport
import FerryVerify
import FerryVerifyTestSupport
import Testing

/// What Core Data writes beside the values, held to what every real store has (see the corpus
/// tests): `Z_OPT` an integer from 1 on every row. Stores written by Ferry, then broken with
/// plain SQL.
@Suite("verify holds Z_OPT to what Core Data writes")
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
}
