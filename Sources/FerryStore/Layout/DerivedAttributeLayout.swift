import FerryModel

/// How a store keeps one derived attribute up to date: Core Data's own `Z_DA_` triggers, and the
/// statement that sets every value from its derivation at once (what the triggers would have
/// computed had they run for every row).
///
/// Only the shape read from a real store is laid out (coredata-format.md §5, CoreDataPlus
/// `Book.pagesCount`): `count:(rel)` of a to-many whose inverse is a to-one, so that each
/// destination row holds its source's key. Core Data's triggers for other derivations
/// (`lowercase:(title)`, `project.name`, `sum:`, a filtering predicate, a many-to-many) are not
/// known from a file; `UnkeptDerivation` names them.
public struct DerivedAttributeLayout: Sendable, Equatable {
    /// The entity declaring the attribute, and the attribute.
    public let entity: String
    public let attribute: String
    /// The derivation as the model keeps it (`count:(pages)`).
    public let derivation: String
    /// The to-many relationship it counts.
    public let relationship: String
    /// The five triggers, in the order Core Data creates them: on the destination table
    /// `PARAMETER_INSERT`, `PARAMETER_UPDATE_INCREMENT`, `PARAMETER_UPDATE_DECREMENT`,
    /// `PARAMETER_DELETE`, then `SOURCE_INSERT` on the attribute's own table.
    public let triggers: [TriggerLayout]
    /// `UPDATE` setting the attribute of every row of the entity (and its sub-entities) to its
    /// derivation.
    public let recomputeStatement: String

    /// How the names of Core Data's derived-attribute triggers begin; a store's other triggers
    /// are not Core Data's.
    public static let triggerPrefix = "Z_DA_"
}

/// A derived attribute whose derivation Ferry cannot keep with Core Data's triggers.
public struct UnkeptDerivation: Sendable, Equatable, CustomStringConvertible {
    public let entity: String
    public let attribute: String
    public let derivation: String
    /// Why Ferry does not keep it (`it counts a many-to-many`).
    public let reason: String

    /// The derivations Ferry writes Core Data's triggers for, computes and checks: all others are unkept.
    public static let keptDerivations = "counts of a one-to-many (count:(rel) or rel.@count, of a to-many whose inverse is a "
        + "to-one, without a filtering predicate)"

    /// The attribute, its derivation and why it is not kept:
    /// `Label.itemCount (count:(items): it counts a many-to-many)`.
    public var description: String { "\(entity).\(attribute) (\(derivation): \(reason))" }
}

extension DerivedAttributeLayout {
    /// The derived attributes of `model` laid out in `layout`: those kept by triggers, and the others.
    static func of(_ model: ManagedObjectModel, in layout: StoreLayout) -> (kept: [DerivedAttributeLayout], unkept: [UnkeptDerivation]) {
        var kept: [DerivedAttributeLayout] = []
        var unkept: [UnkeptDerivation] = []
        for entity in model.entities {
            for attribute in entity.attributes where attribute.isDerived && !attribute.isTransient {
                let derivation = DerivationExpression.normalized(attribute.derivationExpression ?? "")
                switch counting(attribute, of: entity, derivation: derivation, model: model, layout: layout) {
                case .success(let laidOut):
                    kept.append(laidOut)
                case .failure(let unkeptReason):
                    unkept.append(UnkeptDerivation(entity: entity.name, attribute: attribute.name, derivation: derivation,
                                                   reason: unkeptReason.text))
                }
            }
        }
        return (kept, unkept)
    }

    /// Why a derivation is not laid out (`UnkeptDerivation.reason`).
    private struct UnkeptReason: Error {
        let text: String
    }

    /// The layout of `count:(rel)`, when `rel` is a to-many of `entity` whose destinations'
    /// rows hold the key of their source (the to-many's to-one inverse); else why not.
    private static func counting(_ attribute: Attribute, of entity: Entity, derivation: String, model: ManagedObjectModel,
                                 layout: StoreLayout) -> Result<DerivedAttributeLayout, UnkeptReason> {
        let opening = "count:("
        guard attribute.filteringPredicate == nil else { return .failure(UnkeptReason(text: "it has a filtering predicate")) }
        guard derivation.hasPrefix(opening), derivation.hasSuffix(")") else {
            return .failure(UnkeptReason(text: "it is not a count, and Core Data's triggers for it are not known from a file"))
        }
        // The names go into the triggers' SQL text as written: plain ones only.
        guard SQLName.isPlain(entity.name), SQLName.isPlain(attribute.name) else {
            return .failure(UnkeptReason(text: "its entity or attribute name does not fit Core Data's trigger names"))
        }
        let name = String(derivation.dropFirst(opening.count).dropLast())
        guard let relationship = model.allRelationships(of: entity.name).first(where: { $0.name == name }), relationship.isToMany else {
            return .failure(UnkeptReason(text: "\(entity.name) has no to-many relationship '\(name)' to count"))
        }
        let key: ForeignKeyPlacement
        switch layout.placement(of: name, of: entity.name) {
        case .destinationRows(let found)? where !found.isToManyKey: key = found
        case .destinationRows?: return .failure(UnkeptReason(text: "it counts a to-many without an inverse"))
        case .joinTable?: return .failure(UnkeptReason(text: "it counts a many-to-many"))
        case .sourceRow?, nil: return .failure(UnkeptReason(text: "the store keeps no pairs of \(name)"))
        }
        guard let table = layout.table(forEntity: entity.name),
              let column = table.columns.first(where: { $0.role == .attribute(entity: entity.name, name: attribute.name) })?.name else {
            return .failure(UnkeptReason(text: "the store has no column for it"))
        }
        let source = table.name
        let destination = key.table
        let foreignKey = key.key
        let prefix = "\(Self.triggerPrefix)\(destination)_\(entity.name)_\(attribute.name)_PARAMETER_"
        func notify(_ keyRow: String) -> String {
            "SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('\(source)', Z_ENT, Z_PK, '\(attribute.name)', \(column)) FROM \(source) WHERE Z_PK = \(keyRow).\(foreignKey); END"
        }
        func parameter(_ suffix: String, on event: String, row: String, change: String) -> TriggerLayout {
            TriggerLayout(name: prefix + suffix, table: destination, createStatement:
                "CREATE TRIGGER \(prefix + suffix) \(event) ON \(destination) FOR EACH ROW WHEN (\(row).\(foreignKey) NOT NULL) BEGIN "
                    + "UPDATE \(source) SET \(column) = \(change) WHERE Z_PK = \(row).\(foreignKey); \(notify(row))")
        }
        let sourceName = "\(Self.triggerPrefix)\(source)_\(entity.name)_\(attribute.name)_SOURCE_INSERT"
        let triggers = [
            parameter("INSERT", on: "AFTER INSERT", row: "NEW", change: "IFNULL(\(column), 0) + 1"),
            parameter("UPDATE_INCREMENT", on: "AFTER UPDATE OF \(foreignKey)", row: "NEW", change: "\(column) + 1"),
            parameter("UPDATE_DECREMENT", on: "AFTER UPDATE OF \(foreignKey)", row: "OLD", change: "\(column) - 1"),
            parameter("DELETE", on: "AFTER DELETE", row: "OLD", change: "\(column) - 1"),
            TriggerLayout(name: sourceName, table: source, createStatement:
                "CREATE TRIGGER \(sourceName) AFTER INSERT ON \(source) FOR EACH ROW BEGIN "
                    + "UPDATE \(source) SET \(column) = (SELECT IFNULL(COUNT(\(foreignKey)), 0) FROM \(destination) WHERE \(foreignKey) = NEW.Z_PK) "
                    + "WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('\(source)', Z_ENT, Z_PK, "
                    + "'\(attribute.name)', \(column)) FROM \(source) WHERE Z_PK = NEW.Z_PK; END"),
        ]
        let numbers = layout.entityNumbers(below: entity.name, in: model).map(String.init).joined(separator: ", ")
        let derived = "(SELECT COUNT(*) FROM \(destination) d WHERE d.\(foreignKey) = s.Z_PK)"
        return .success(DerivedAttributeLayout(
            entity: entity.name, attribute: attribute.name, derivation: derivation, relationship: name, triggers: triggers,
            recomputeStatement: "UPDATE \(source) AS s SET \(column) = \(derived) WHERE s.Z_ENT IN (\(numbers))"))
    }
}
