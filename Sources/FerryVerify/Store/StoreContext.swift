import FerryModel
import FerryStore

/// What every check needs: the model, its layout, and the connection FerryStore's independent
/// scans ask their questions on.
struct StoreContext {
    let model: ManagedObjectModel
    let layout: StoreLayout
    let connection: ScanConnection

    /// `Z_ENT` of an entity and of every entity below it.
    func numbers(below entity: String) -> [Int] {
        layout.entityNumbers(below: entity, in: model)
    }

    /// `Z_ENT` of the non-abstract entities at or below an entity: the numbers rows may have.
    func concreteNumbers(below entity: String) -> [Int] {
        model.hierarchy(below: entity).filter { !$0.isAbstract }.compactMap { layout.entityNumbers[$0.name] }
    }

    /// The table of an entity's rows (its root's).
    func table(of entity: String) -> TableLayout? { layout.table(forEntity: entity) }

    /// The column of an attribute or to-one relationship an entity has (declared or inherited).
    func propertyColumn(_ property: String, of entity: String) -> ColumnLayout? {
        guard let owner = model.declaringEntity(ofProperty: property, in: entity), let table = table(of: entity) else { return nil }
        return table.column(for: .attribute(entity: owner.name, name: property))
            ?? table.column(for: .toOne(entity: owner.name, relationship: property))
    }

    /// Entity tables with their root entity, in table order.
    var entityTables: [(table: TableLayout, root: String, members: [String])] {
        layout.tables.compactMap { table in
            if case .entity(let root, let members) = table.kind { (table, root, members) } else { nil }
        }
    }

    /// Every non-transient relationship, with the entity that declares it, in store order.
    var storedRelationships: [(entity: Entity, relationship: Relationship)] {
        model.entitiesInStoreOrder.flatMap { entity in
            entity.relationships.filter { !$0.isTransient }.map { (entity, $0) }
        }
    }
}
