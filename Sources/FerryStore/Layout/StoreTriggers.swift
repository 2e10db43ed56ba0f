/// A trigger in a store that Core Data did not write. It runs inside every change of its table,
/// an app's saves and Ferry's `update`, `delete` and `import --append` alike, where it may change
/// other rows or refuse the change: nothing a plan shows.
public struct ForeignTrigger: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    /// The table whose changes fire it.
    public let table: String
    /// Why it is not Core Data's (`is not Core Data's: …`).
    public let reason: String

    /// `trigger evil on ZTASK is not Core Data's: …`.
    public var description: String { "trigger \(name) on \(table) \(reason)" }
}

/// A store's triggers against the ones Core Data writes for its model. Core Data writes no
/// trigger but its `Z_DA_` ones keeping derived attributes (every store of the corpus holds only
/// those): the layout's (`DerivedAttributeLayout`) must be there byte for byte, and those of a
/// derivation whose triggers Ferry does not know (`UnkeptDerivation`) are Core Data's by their
/// name, their statements unchecked. Any other trigger is foreign.
public struct StoreTriggers: Sendable, Equatable {
    /// The triggers Core Data did not write, in `sqlite_master` order.
    public let foreign: [ForeignTrigger]
    /// The `Z_DA_` triggers of derivations Ferry does not lay out, whose statements are not known.
    public let unchecked: [DatabaseSchema.Trigger]

    /// Sorts the triggers of `schema` against those of `layout`.
    public init(_ schema: DatabaseSchema, layout: StoreLayout) {
        let expected = Dictionary(layout.derivedAttributes.flatMap { derived in derived.triggers.map { ($0.name, (derived, $0)) } },
                                  uniquingKeysWith: { first, _ in first })
        var foreign: [ForeignTrigger] = []
        var unchecked: [DatabaseSchema.Trigger] = []
        for trigger in schema.triggers {
            if let (derived, layout) = expected[trigger.name] {
                guard trigger.createStatement != layout.createStatement else { continue }
                foreign.append(ForeignTrigger(name: trigger.name, table: trigger.table,
                                              reason: "has the name of Core Data's trigger keeping \(derived.entity).\(derived.attribute) (\(derived.derivation)) "
                                                  + "but another statement: \(trigger.createStatement)"))
            } else if trigger.name.hasPrefix(DerivedAttributeLayout.triggerPrefix),
                      layout.unkeptDerivations.contains(where: { trigger.name.contains("_\($0.entity)_\($0.attribute)_") }) {
                unchecked.append(trigger)
            } else {
                foreign.append(ForeignTrigger(name: trigger.name, table: trigger.table,
                                              reason: "is not Core Data's (it writes none but the Z_DA_ triggers of the model's derived "
                                                  + "attributes): \(trigger.createStatement)"))
            }
        }
        (self.foreign, self.unchecked) = (foreign, unchecked)
    }
}
