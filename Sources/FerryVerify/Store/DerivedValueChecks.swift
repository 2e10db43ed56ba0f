import FerryModel
import FerryStore

/// Notes on derived attributes (`derived="YES"`) the store keeps with Core Data's triggers
/// (`StoreLayout.derivedAttributes`, `count:(rel)`): objects whose stored value is not their
/// number of destinations, counted from the relationship's pairs (not by the triggers' SQL nor
/// the writer's), and a store that lacks the `Z_DA_` triggers keeping them so (an app's later
/// saves would leave the values stale). Derivations whose triggers are not known are noted as
/// unchecked. Notes, not failures, in a store of any origin: whether Core Data fills the values of
/// objects saved before a migration added the derivation is not known from a file. Failures of
/// the `values` section when the store's writer computed the counts (`computed`): then a
/// disagreement is the writer's fault; and so for a change in place (`StoreChangeChecks`), which
/// fails when it leaves more disagreeing objects than the store had.
struct DerivedValueChecks {
    let context: StoreContext
    let computed: Bool

    func run(_ recorder: inout CheckRecorder) {
        let layout = context.layout
        guard !layout.derivedAttributes.isEmpty || !layout.unkeptDerivations.isEmpty else { return }
        let triggers = Result { () throws(SQLiteError) in try BookkeepingScan(context.connection).triggerNames() }
        for derived in layout.derivedAttributes {
            let subject = derived.subject
            report("derived-value", derived, &recorder) { () throws(SQLiteError) in
                guard let rows = try mismatches(derived), rows.count > 0 else { return nil }
                let samples = rows.samples.map { "Z_PK \($0.primaryKey ?? 0): \($0.values["stored"] ?? "?"), counted \($0.values["derived"] ?? "?")" }
                return VerificationFailure(check: "derived-value", subject: subject,
                                           message: "\(rows.count) object(s) hold a value other than the number of their "
                                               + "\(derived.relationship) (\(samples.joined(separator: "; ")))",
                                           count: rows.count, samples: rows.samples)
            }
            report("derived-trigger", derived, &recorder) { () throws(SQLiteError) in
                let present = try triggers.get()
                let missing = derived.triggers.filter { !present.contains($0.name) }
                guard !missing.isEmpty else { return nil }
                return VerificationFailure(check: "derived-trigger", subject: subject,
                                           message: "the store lacks \(missing.count) of Core Data's \(derived.triggers.count) "
                                               + "Z_DA_ triggers that keep it up to date; an app's later saves would leave it stale")
            }
        }
        for unkept in layout.unkeptDerivations {
            recorder.note("\(unkept): a derived attribute whose values are not checked "
                + "(Ferry writes Core Data's triggers for, and checks, \(UnkeptDerivation.keptDerivations) alone)")
        }
    }

    /// A failure of the `values` section when the counts were computed by the store's writer (so
    /// is a check that cannot run), a note otherwise.
    private func report(_ code: String, _ derived: DerivedAttributeLayout, _ recorder: inout CheckRecorder,
                        _ finding: () throws(SQLiteError) -> VerificationFailure?) {
        let subject = derived.subject
        if computed {
            recorder.check(ValueChecks.section, subject: subject, code: code) { () throws(SQLiteError) in
                guard var failure = try finding() else { return nil }
                failure.message = "\(derived.derivation): " + failure.message
                return failure
            }
            return
        }
        do {
            if let failure = try finding() { recorder.note("\(subject) (\(derived.derivation)): \(failure.message)") }
        } catch {
            recorder.note("\(subject) (\(derived.derivation)): \(code) not checked: \(error)")
        }
    }

    /// The objects whose stored value is not their number of destinations; nil when the layout
    /// has no place for the attribute or the relationship.
    private func mismatches(_ derived: DerivedAttributeLayout) throws(SQLiteError) -> OffendingRows? {
        guard let declaring = context.model.declaringEntity(ofProperty: derived.relationship, in: derived.entity),
              let relationship = declaring.relationship(named: derived.relationship),
              let pairs = RelationshipPairs(relationship, declaredBy: declaring.name, rowsOf: derived.entity,
                                            model: context.model, layout: context.layout),
              let table = context.table(of: derived.entity), let column = context.propertyColumn(derived.attribute, of: derived.entity) else {
            return nil
        }
        return try PairScan(context.connection, model: context.model, layout: context.layout)
            .countMismatches(of: pairs, sourceTable: table.name, column: column.name)
    }
}

private extension DerivedAttributeLayout {
    /// `Entity.attribute`, as the report names it.
    var subject: String { "\(entity).\(attribute)" }
}
