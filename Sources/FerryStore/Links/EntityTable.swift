import FerryModel

/// The table of an entity's root as the link SQL names it: its name, the root, the root's
/// number (the key map is kept by it), and the `Z_ENT`s of the entity's concrete members.
struct EntityTable {
    let layout: TableLayout
    let root: String
    let rootNumber: Int
    /// `Z_ENT`s of the entity and every entity below it, as an SQL list.
    let members: String
    var table: String { layout.name }

    init(_ entity: String, _ writer: CoreDataStoreWriter) throws(LinkResolutionError) {
        let layout = writer.layout
        guard let table = layout.table(forEntity: entity), case let .entity(root, _) = table.kind,
              let rootNumber = layout.entityNumbers[root] else { throw .unknownEntity(entity) }
        let members = layout.entityNumbers(below: entity, in: writer.model).map(String.init)
        self.layout = table
        self.root = root
        self.rootNumber = rootNumber
        self.members = members.joined(separator: ", ")
    }

    /// The column of `attribute` (declared by `entity` or an ancestor).
    func attributeColumn(_ attribute: String, of entity: String, model: ManagedObjectModel) throws(LinkResolutionError) -> String {
        let owner = model.declaringEntity(ofProperty: attribute, in: entity)?.name ?? entity
        guard let column = layout.column(for: .attribute(entity: owner, name: attribute))?.name else {
            throw .unsupported(entity: entity, relationship: attribute, reason: "no column for attribute '\(attribute)'")
        }
        return column
    }
}
