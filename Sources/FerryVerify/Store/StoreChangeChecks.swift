import FerryModel
import FerryStore

/// The checks a delete or an update of a store in place is held to (`MutableStore.changeCheck`):
/// `verify`'s value checks (required attributes, storage classes, uniqueness) and relationship
/// checks (keys and join rows pointing at objects that exist, required relationships, counts,
/// order keys), and the counts Core Data's `Z_DA_` triggers keep (`DerivedValueChecks`, held to
/// as failures: a change may not leave more objects whose count disagrees with what it counts),
/// over the connection of the change itself, so they see it before it commits.
public enum StoreChangeChecks {
    /// The check for stores of `model` laid out as `layout`.
    public static func check(model: ManagedObjectModel, layout: StoreLayout) -> ChangeCheck {
        ChangeCheck { connection in
            let context = StoreContext(model: model, layout: layout, connection: connection)
            var recorder = CheckRecorder()
            let values = ValueChecks(context: context)
            values.run(values.scan(), &recorder)
            _ = RelationshipChecks(context: context).run(&recorder)
            DerivedValueChecks(context: context, computed: true).run(&recorder)
            var findings: [ChangeFinding: Int64] = [:]
            for failure in recorder.sections.flatMap(\.failures) {
                let finding = ChangeFinding(check: failure.check, subject: failure.subject, message: failure.message)
                findings[finding, default: 0] += max(failure.count, 1)
            }
            return findings
        }
    }
}
