import FerryModel
import FerryStore

/// One output column of a query: its name and how its stored value is shown.
struct QueryColumn {
    enum Kind {
        case primaryKey, entity, integer, boolean, real, decimal, date, text, uuid, binary
        /// Binary of an attribute that allows external storage, stored tagged (`ExternalBinaryData`).
        case externallyStorableBinary
        /// A to-one relationship: the destination's `Z_PK`.
        case reference
        /// A to-many relationship: the destinations' `Z_PK`s, in its order.
        case toMany
    }

    var name: String
    var kind: Kind
    /// The result column index in the compiled query's rows.
    var index: Int32

    /// `Z_PK`, `entity`, then the attributes and to-one relationships among `columns` (the
    /// compiled query's columns from index 2), in table order, then the to-many relationships.
    static func columns(of query: CompiledQuery, model: ManagedObjectModel) -> [QueryColumn] {
        var result = [QueryColumn(name: "Z_PK", kind: .primaryKey, index: 0), QueryColumn(name: "entity", kind: .entity, index: 1)]
        for (offset, column) in query.columns.enumerated() {
            let index = Int32(offset + 2)
            switch column.role {
            case let .attribute(owner, name):
                guard let attribute = model.entity(named: owner)?.attribute(named: name) else { continue }
                result.append(QueryColumn(name: name, kind: kind(of: attribute), index: index))
            case let .toOne(_, name):
                result.append(QueryColumn(name: name, kind: .reference, index: index))
            default:
                continue
            }
        }
        for (offset, name) in query.toManyRelationships.enumerated() {
            result.append(QueryColumn(name: name, kind: .toMany, index: Int32(2 + query.columns.count + offset)))
        }
        return result
    }

    private static func kind(of attribute: Attribute) -> Kind {
        switch attribute.type {
        case .integer16, .integer32, .integer64: .integer
        case .boolean: .boolean
        case .double, .float: .real
        case .decimal: .decimal
        case .date: .date
        case .string, .uri: .text
        case .uuid: .uuid
        case .binary, .transformable: attribute.allowsExternalBinaryDataStorage ? .externallyStorableBinary : .binary
        case .undefined, .objectID, .composite: .binary
        }
    }
}
