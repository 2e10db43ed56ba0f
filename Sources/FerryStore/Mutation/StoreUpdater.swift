import FerryModel

extension MutableStore {
    /// Sets attributes of the objects of `entity` (and its sub-entities) matching `predicate`, in
    /// one transaction, and raises their `Z_OPT` by one.
    ///
    /// `values` are typed (`AttributeValue`, see `TextCoercion` for text): each must fit its
    /// attribute's type (integers in range), NULL is refused for required attributes, derived
    /// attributes and those a derivation reads are refused (`DerivedAttributeCheck`), and every
    /// uniqueness constraint of the entity's hierarchy that involves a set attribute is checked
    /// afterwards; a duplicate rolls everything back and names the values. Values are stored in
    /// Core Data's form (`StoreValue(_:externallyStorable:)`: binary values of attributes that
    /// allow external storage are tagged).
    /// - Returns: the number of objects changed.
    @discardableResult
    public func update(_ entity: String, where predicate: FetchPredicate?, set values: [(key: String, value: AttributeValue)],
                       variables: [String: PredicateValue] = [:]) throws(StoreMutationError) -> Int {
        let change = try AttributeChange(values, of: entity, in: self)
        let compiled = try compile(predicate, entity: entity, variables: variables)
        let matching = "SELECT t0.Z_PK FROM \(compiled.fromClause) WHERE \(compiled.whereClause)"
        let sql = "UPDATE \(change.table.name) SET \(change.assignments.joined(separator: ", ")), Z_OPT = COALESCE(Z_OPT, 0) + 1"
            + " WHERE Z_PK IN (\(matching))"
        let (changed, released) = try transaction { () throws(StoreMutationError) in
            try checkUniqueness(of: entity, newValues: change.newValues, matching: compiled, in: change.table)
            // The files of replaced values that Core Data kept outside the database (`ExternalFileRelease`).
            let released = try checkExternalFolder(releasing: externalFiles(of: change.attributes, in: change.table, entity: entity,
                                                                            rowSelection: matching, parameters: compiled.parameters))
            let changed = try StoreMutationError.sqlite { () throws(SQLiteError) in
                let statement = try database.prepare(sql)
                for (offset, value) in (change.parameters + compiled.parameters).enumerated() {
                    try statement.bind(value, at: Int32(offset + 1))
                }
                try statement.run()
                return Int(try database.scalarInteger("SELECT changes()") ?? 0)
            }
            return (changed, released)
        }
        _ = removeReleasedExternalFiles(released)
        return changed
    }

    /// The objects `update` would change, by `Z_PK`, after the same checks of the values and the
    /// uniqueness constraints (which throw as `update` would); changes nothing
    /// (`ferry update --dry-run`).
    public func planUpdate(_ entity: String, where predicate: FetchPredicate?, set values: [(key: String, value: AttributeValue)],
                           variables: [String: PredicateValue] = [:]) throws(StoreMutationError) -> [ObjectKey] {
        let change = try AttributeChange(values, of: entity, in: self)
        let compiled = try compile(predicate, entity: entity, variables: variables)
        try checkUniqueness(of: entity, newValues: change.newValues, matching: compiled, in: change.table)
        return try matchingObjects(of: entity, where: predicate, variables: variables)
    }

    /// Throws `.uniquenessViolation` when, with `newValues` set on the rows `matching` selects, a
    /// uniqueness constraint of `entity`'s hierarchy that involves a set key would have two rows
    /// with the same non-NULL values. Checked before the update, on what the rows would become.
    private func checkUniqueness(of entity: String, newValues: [String: StoreValue], matching: CompiledPredicate,
                                 in table: TableLayout) throws(StoreMutationError) {
        let related = model.ancestry(of: entity) + model.hierarchy(below: entity)
        var checked: Set<[String]> = []
        for owner in related {
            for constraint in owner.uniquenessConstraints where constraint.contains(where: { newValues[$0] != nil }) {
                guard checked.insert([owner.name] + constraint).inserted else { continue }
                var expressions: [String] = []
                var parameters = matching.parameters
                for (offset, key) in constraint.enumerated() {
                    let declaring = model.declaringEntity(ofProperty: key, in: owner.name)?.name ?? owner.name
                    guard let column = table.column(for: .attribute(entity: declaring, name: key))
                        ?? table.column(for: .toOne(entity: declaring, relationship: key)) else {
                        throw .unsupported("uniqueness constraint key \(owner.name).\(key) has no column")
                    }
                    if let value = newValues[key] {
                        expressions.append("CASE WHEN Z_PK IN (SELECT Z_PK FROM matched) THEN ? ELSE \(column.name) END AS c\(offset)")
                        parameters.append(value)
                    } else {
                        expressions.append("\(column.name) AS c\(offset)")
                    }
                }
                let names = constraint.indices.map { "c\($0)" }
                let sql = "WITH matched AS (SELECT t0.Z_PK AS Z_PK FROM \(matching.fromClause) WHERE \(matching.whereClause))"
                    + " SELECT \(names.map { "quote(\($0))" }.joined(separator: ", ")) FROM"
                    + " (SELECT \(expressions.joined(separator: ", ")) FROM \(table.name) WHERE Z_ENT IN (\(hierarchyNumbers(owner.name))))"
                    + " WHERE " + names.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
                    + " GROUP BY \(names.joined(separator: ", ")) HAVING count(*) > 1 LIMIT 1"
                let duplicate = try StoreMutationError.sqlite { () throws(SQLiteError) -> [String]? in
                    let statement = try database.prepare(sql)
                    for (offset, value) in parameters.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
                    guard try statement.step() else { return nil }
                    return (0..<Int32(names.count)).map { statement.string(at: $0) ?? "NULL" }
                }
                if let duplicate { throw .uniquenessViolation(entity: owner.name, keys: constraint, values: duplicate) }
            }
        }
    }
}

/// Whether a typed value may be stored in an attribute.
enum AttributeValueCheck {
    static func check(_ value: AttributeValue, for attribute: Attribute, entity: String) throws(StoreMutationError) {
        func mismatch(_ reason: String) -> StoreMutationError {
            .typeMismatch(entity: entity, attribute: attribute.name, reason: reason)
        }
        let type = attribute.type
        switch value {
        case .null:
            if !attribute.isOptional { throw .requiredAttribute(entity: entity, attribute: attribute.name) }
            return
        case .integer(let number):
            guard let range = type.integerRange else { break }
            guard range.contains(number) else { throw mismatch("\(number) is out of range for \(type.xcodeName)") }
            return
        case .bool where type == .boolean, .double where type == .double || type == .float, .decimal where type == .decimal,
             .string where type == .string, .date where type == .date, .uuid where type == .uuid, .uri where type == .uri,
             .binary where type == .binary || type == .transformable:
            return
        default:
            break
        }
        throw mismatch("\(type.withArticle) attribute cannot hold \(value)")
    }
}

/// The columns an update sets and their values in Core Data's form, checked against the model.
private struct AttributeChange {
    let table: TableLayout
    /// `COLUMN = ?`, one per value.
    let assignments: [String]
    let parameters: [StoreValue]
    /// The stored value of each attribute set (the last one when an attribute is given twice).
    let newValues: [String: StoreValue]
    /// The attributes set.
    let attributes: [Attribute]

    init(_ values: [(key: String, value: AttributeValue)], of entity: String, in store: MutableStore) throws(StoreMutationError) {
        guard !values.isEmpty else { throw .unsupported("nothing to set") }
        table = try store.table(of: entity)
        var assignments: [String] = []
        var parameters: [StoreValue] = []
        var attributes: [Attribute] = []
        let derivations = try DerivedAttributeCheck(store: store)
        for (key, value) in values {
            guard let owner = store.model.ancestry(of: entity).first(where: { $0.attribute(named: key) != nil }),
                  let attribute = owner.attribute(named: key), !attribute.isTransient,
                  let column = table.column(for: .attribute(entity: owner.name, name: key)) else {
                throw .unknownAttribute(entity: entity, key: key)
            }
            try derivations.check(attribute, declaredBy: owner.name)
            try AttributeValueCheck.check(value, for: attribute, entity: entity)
            // An object Core Data saves is validated: a value its bounds or rules forbid is refused.
            if let problem = AttributeValidation(attribute)?.problem(of: value) {
                throw .typeMismatch(entity: entity, attribute: key, reason: problem)
            }
            attributes.append(attribute)
            assignments.append("\(column.name) = ?")
            parameters.append(StoreValue(value, externallyStorable: attribute.allowsExternalBinaryDataStorage))
        }
        self.assignments = assignments
        self.parameters = parameters
        self.attributes = attributes
        newValues = Dictionary(zip(values.map(\.key), parameters), uniquingKeysWith: { _, last in last })
    }
}
