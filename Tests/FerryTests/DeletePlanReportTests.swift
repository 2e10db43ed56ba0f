@testable import Ferry
@testable import FerryStore
import Testing

/// The delete's report names each object that holds a reference once, under its own entity.
@Suite("delete report")
struct DeletePlanReportTests {
    @Test("an object of a sub-entity is named by its entity, and an object nullified twice once (a Person was named Employee, Dept 1 twice)")
    func objectsByTheirEntityOnce() {
        var plan = DeletePlan()
        let deleted = [ObjectKey(entity: "Badge", primaryKey: 7), ObjectKey(entity: "Badge", primaryKey: 8)]
        plan.nullified = [
            Nullification(object: ObjectKey(entity: "Person", primaryKey: 2), relationship: "Person.badges", deletedObject: deleted[0], via: "Badge.owner"),
            Nullification(object: ObjectKey(entity: "Employee", primaryKey: 11), relationship: "Person.badges", deletedObject: deleted[1], via: "Badge.owner"),
            Nullification(object: ObjectKey(entity: "Dept", primaryKey: 1), relationship: "Dept.members", deletedObject: deleted[0], via: "Badge.dept"),
            Nullification(object: ObjectKey(entity: "Dept", primaryKey: 1), relationship: "Dept.members", deletedObject: deleted[1], via: "Badge.dept"),
        ]
        let text = DeletePlanReport.text(plan, dryRun: false)
        #expect(text.contains("  Dept.members: 2 (Dept Z_PK 1)\n  Person.badges: 2 (Person Z_PK 2; Employee Z_PK 11)\n"), "\(text)")
    }
}
