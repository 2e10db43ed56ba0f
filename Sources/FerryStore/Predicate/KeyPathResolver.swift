import FerryFormats
import FerryModel

/// One step of a key path resolved against the model.
enum KeyStep {
    case attribute(Attribute, declaredBy: String)
    case toOne(Relationship, declaredBy: String)
    case toMany(Relationship, declaredBy: String)
    /// `@count` after a to-many relationship.
    case count
    /// `Z_PK`, the object's primary key in the store (the key `ferry query` shows), at the end.
    case primaryKey
}

/// A row source in SQL: a table alias and the entity its rows are seen as.
struct SQLPlace {
    var alias: String
    var entity: String
}

/// What a scalar key path compiles to.
enum KeyPathTerm {
    /// An SQL expression of an attribute type (`@count` is `.integer64`).
    case column(String, AttributeType)
    /// The foreign-key column of a to-one relationship (only comparable with nil).
    case reference(String)
}

/// Resolves key paths against a model and turns them into columns, joins and subquery sources of
/// its store layout. Every table and column name comes from the layout.
struct KeyPathResolver {
    let model: ManagedObjectModel
    let layout: StoreLayout

    /// The steps of `components` starting at `entity`. At most one to-many step; `@count` only right
    /// after it, at the end; attributes and `Z_PK` only at the end.
    func steps(_ components: [String], from entity: String) throws(FetchPredicateError) -> [KeyStep] {
        let keyPath = components.joined(separator: ".")
        var current = entity
        var steps: [KeyStep] = []
        for (offset, component) in components.enumerated() {
            let isLast = offset == components.count - 1
            if component == "@count" {
                guard isLast, case .toMany = steps.last else {
                    throw .unsupported("\(keyPath): @count must follow a to-many relationship and end the key path")
                }
                steps.append(.count)
                continue
            }
            // Core Data's property names start with a lowercase letter, so Z_PK names no property.
            if component == "Z_PK" {
                guard isLast else { throw .typeMismatch(keyPath: keyPath, reason: "Z_PK is a number, a key path cannot continue after it") }
                steps.append(.primaryKey)
                continue
            }
            let ancestry = model.ancestry(of: current)
            if let owner = ancestry.first(where: { $0.attribute(named: component) != nil }),
               let attribute = owner.attribute(named: component) {
                guard isLast else {
                    throw .typeMismatch(keyPath: keyPath, reason: "\(component) is an attribute, a key path cannot continue after it")
                }
                guard !attribute.isTransient, attribute.type.sqlColumnType != nil else {
                    throw .unsupported("\(keyPath): \(component) has no column in the store")
                }
                steps.append(.attribute(attribute, declaredBy: owner.name))
            } else if let owner = ancestry.first(where: { $0.relationship(named: component) != nil }),
                      let relationship = owner.relationship(named: component), !relationship.isTransient {
                if relationship.isToMany {
                    if steps.contains(where: { if case .toMany = $0 { true } else { false } }) {
                        throw .unsupported("\(keyPath) goes through more than one to-many relationship")
                    }
                    steps.append(.toMany(relationship, declaredBy: owner.name))
                } else {
                    steps.append(.toOne(relationship, declaredBy: owner.name))
                }
                current = relationship.destinationEntity
            } else {
                let known = ancestry.flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) }
                throw .unknownKey(key: component, entity: current, suggestion: NameSuggestion.closest(to: component, among: known))
            }
        }
        return steps
    }

    /// The table of an entity.
    func table(of entity: String) throws(FetchPredicateError) -> TableLayout {
        guard model.entity(named: entity) != nil, let table = layout.table(forEntity: entity) else {
            throw .unknownEntity(entity)
        }
        return table
    }

    /// `alias.Z_ENT = n` or `alias.Z_ENT IN (…)` when the entity's table also holds rows of other
    /// entities; nil when every row of the table belongs to the entity.
    func entityRestriction(_ place: SQLPlace) throws(FetchPredicateError) -> String? {
        let table = try table(of: place.entity)
        let numbers = model.hierarchy(below: place.entity).compactMap { layout.entityNumbers[$0.name] }
        guard case .entity(_, let members) = table.kind, members.count > numbers.count else { return nil }
        if numbers.count == 1, let number = numbers.first { return "\(place.alias).Z_ENT = \(number)" }
        return "\(place.alias).Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))"
    }

    /// Follows to-one steps from `place` (joining as needed) and compiles the last step.
    func scalar(_ steps: ArraySlice<KeyStep>, at place: SQLPlace, joins: SQLJoins,
                keyPath: String) throws(FetchPredicateError) -> KeyPathTerm {
        guard let last = steps.last else { throw .unsupported("empty key path") }
        let place = try follow(steps.dropLast(), from: place, joins: joins, keyPath: keyPath)
        switch last {
        case let .attribute(attribute, owner):
            let table = try table(of: place.entity)
            guard let column = table.column(for: .attribute(entity: owner, name: attribute.name)) else {
                throw .unsupported("\(keyPath): \(attribute.name) has no column in \(table.name)")
            }
            return .column("\(place.alias).\(column.name)", attribute.type)
        case let .toOne(relationship, owner):
            return .reference(try foreignKey(relationship, declaredBy: owner, in: place, keyPath: keyPath))
        case .toMany(let relationship, _):
            throw .unsupported("\(keyPath): to-many relationship \(relationship.name) needs ANY, ALL, NONE or @count")
        case .count:
            throw .unsupported("\(keyPath): @count must follow a to-many relationship")
        case .primaryKey:
            return .column("\(place.alias).Z_PK", .integer64)
        }
    }

    /// The place reached from `place` through to-one steps, each joined once in `joins`.
    func follow(_ steps: ArraySlice<KeyStep>, from place: SQLPlace, joins: SQLJoins,
                keyPath: String) throws(FetchPredicateError) -> SQLPlace {
        var place = place
        for step in steps {
            guard case let .toOne(relationship, owner) = step else {
                throw .unsupported("\(keyPath): only to-one relationships can lead to a key here")
            }
            let foreignKey = try foreignKey(relationship, declaredBy: owner, in: place, keyPath: keyPath)
            let destination = try table(of: relationship.destinationEntity)
            place = SQLPlace(alias: joins.join(table: destination.name, on: foreignKey), entity: relationship.destinationEntity)
        }
        return place
    }

    /// The qualified foreign-key column of a to-one relationship.
    private func foreignKey(_ relationship: Relationship, declaredBy owner: String, in place: SQLPlace,
                            keyPath: String) throws(FetchPredicateError) -> String {
        let table = try table(of: place.entity)
        guard let column = table.column(for: .toOne(entity: owner, relationship: relationship.name)) else {
            throw .unsupported("\(keyPath): \(relationship.name) has no column in \(table.name)")
        }
        return "\(place.alias).\(column.name)"
    }

    /// A scalar subquery of the object at `place`: the `Z_PK`s of a to-many relationship's
    /// destinations as text, separated by spaces, in the relationship's order (by position when it
    /// is ordered, else by `Z_PK`), NULL when it has none; nil when the store keeps no rows for it.
    func destinationKeys(_ relationship: Relationship, declaredBy owner: String, from place: SQLPlace,
                         aliases: SQLAliases) throws(FetchPredicateError) -> String? {
        let row = aliases.next()
        let selection: String
        switch layout.placement(of: relationship.name, of: owner) {
        case .destinationRows(let key):
            let destination = SQLPlace(alias: row, entity: relationship.destinationEntity)
            var condition = "\(row).\(key.key) = \(place.alias).Z_PK"
            if let restriction = try entityRestriction(destination) { condition += " AND " + restriction }
            let order = (relationship.isOrdered ? key.orderKey.map { ["\(row).\($0)"] } ?? [] : []) + ["\(row).Z_PK"]
            selection = "SELECT \(row).Z_PK AS k FROM \(try table(of: destination.entity).name) \(row) WHERE \(condition)"
                + " ORDER BY \(order.joined(separator: ", "))"
        case .joinTable(let join):
            let order = (join.order.map { ["\(row).\($0)"] } ?? []) + ["\(row).\(join.destination)"]
            selection = "SELECT \(row).\(join.destination) AS k FROM \(join.table) \(row) WHERE \(row).\(join.source) = \(place.alias).Z_PK"
                + " ORDER BY \(order.joined(separator: ", "))"
        case .sourceRow, nil:
            return nil
        }
        return "(SELECT group_concat(k, ' ') FROM (\(selection)))"
    }

    /// The rows of a to-many relationship of the object at `place`: the `FROM` text of a subquery,
    /// the condition tying it to `place`, and the destination rows. With `countOnly`, a
    /// many-to-many source reads only its join table (no destination rows to look at).
    func toMany(_ relationship: Relationship, declaredBy owner: String, from place: SQLPlace, aliases: SQLAliases,
                countOnly: Bool, keyPath: String) throws(FetchPredicateError) -> (from: String, link: String, destination: SQLPlace) {
        let destinationTable = try table(of: relationship.destinationEntity)
        let destination = SQLPlace(alias: aliases.next(), entity: relationship.destinationEntity)
        var from: String
        var link: String
        switch layout.placement(of: relationship.name, of: owner) {
        case .destinationRows(let key):
            from = "\(destinationTable.name) \(destination.alias)"
            link = "\(destination.alias).\(key.key) = \(place.alias).Z_PK"
        case .joinTable(let join):
            let pairs = aliases.next()
            link = "\(pairs).\(join.source) = \(place.alias).Z_PK"
            from = "\(join.table) \(pairs)"
            if countOnly { return (from, link, destination) }
            from += " JOIN \(destinationTable.name) \(destination.alias) ON \(destination.alias).Z_PK = \(pairs).\(join.destination)"
        case .sourceRow, nil:
            throw .unsupported("\(keyPath): \(relationship.name) has no column or join table in the store")
        }
        if let restriction = try entityRestriction(destination) { link += " AND " + restriction }
        return (from, link, destination)
    }
}
