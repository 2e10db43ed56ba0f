@testable import FerryMigration
import Testing

/// Relationship pairs are tallied where the store keeps them and compared with their census.
@Suite("pair tally")
struct PairTallyTests {
    @Test("the tally names every place where the store holds another number of pairs than were taken")
    func tally() {
        var tally = PairTally()
        tally.add("ZUPLOAD.ZTASK", 3)
        tally.add("Z_1TASKS")
        tally.add(nil)
        #expect(tally.discrepancies(census: ["ZUPLOAD.ZTASK": 3, "Z_1TASKS": 1]).isEmpty)
        #expect(tally.discrepancies(census: ["ZUPLOAD.ZTASK": 4, "Z_1TASKS": 1, "ZTASK.ZPARENT": 2]) == [
            "relationship pairs in ZTASK.ZPARENT: the store holds 2, 0 were read",
            "relationship pairs in ZUPLOAD.ZTASK: the store holds 4, 3 were read",
        ])
    }
}
