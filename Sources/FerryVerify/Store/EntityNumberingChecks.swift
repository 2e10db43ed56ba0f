import FerryModel
import FerryStore

/// Part of the `store` section: each entity's `Z_PRIMARYKEY` row sits at the number Core Data
/// gives the entity for the model (`ManagedObjectModel.entityNumbers`, coredata-format.md §2),
/// as in every real store of the corpus. Core Data reaches the row and the entity's rows by that
/// number, not by `Z_NAME` (which keeps an entity's old name after a rename): it takes the
/// entity's next `Z_PK` from that row's `Z_MAX` and reads rows of that `Z_ENT` as the entity.
/// Ferry's readers go by `Z_NAME`, so a store numbered otherwise (rows renumbered, a row named
/// for another entity) read clean to them, while Core Data would read one entity's objects as
/// another's and hand out keys already in use. An entity with no row at all is the `z-max`
/// (root) and `z-super` (sub-entity) checks'.
struct EntityNumberingChecks {
    let context: StoreContext
    let primaryKeys: [PrimaryKeyEntry]

    func run(_ recorder: inout CheckRecorder) {
        let numbers = context.model.entityNumbers
        let rows = Dictionary(primaryKeys.filter { !$0.isSystemEntity }.map { ($0.entityNumber, $0) }) { first, _ in first }
        for entity in context.model.entitiesInStoreOrder {
            guard let number = numbers[entity.name] else { continue }
            recorder.check(StoreHealthChecks.section, subject: entity.name, code: "entity-numbering") {
                numbering(of: entity, number: number, row: rows[Int64(number)])
            }
        }
    }

    /// The failure of `entity`, which Core Data numbers `number`, when `row` (the row of that
    /// number) is not its own: named for it, or for the name it had before a rename.
    private func numbering(of entity: Entity, number: Int, row: PrimaryKeyEntry?) -> VerificationFailure? {
        if let row, row.name == entity.name || row.name == entity.renamingIdentifier { return nil }
        let own = primaryKeys.first { !$0.isSystemEntity && ($0.name == entity.name || $0.name == entity.renamingIdentifier) }
        guard row != nil || own != nil else { return nil }
        let named = row.map { "row Z_ENT \(number) is named \($0.name)" } ?? "it has no row Z_ENT \(number)"
        let problem = if let own, row != nil {
            "Z_PRIMARYKEY numbers it \(own.entityNumber) (\(named)): Core Data would read the rows of Z_ENT \(number) as "
                + "\(entity.name) and take its keys from that row's Z_MAX, already used by another entity's rows"
        } else if let own {
            "Z_PRIMARYKEY numbers it \(own.entityNumber) (\(named)): Core Data would find none of its rows, which are of Z_ENT "
                + "\(own.entityNumber), and no Z_MAX to take its keys from"
        } else {
            "Z_PRIMARYKEY's \(named), neither \(entity.name) nor a former name of it: the store does not say which entity its rows "
                + "of Z_ENT \(number) are"
        }
        return VerificationFailure(check: "entity-numbering", subject: entity.name,
                                   message: "Core Data numbers entity \(entity.name) \(number) in model \(context.model.name), but \(problem)")
    }
}
