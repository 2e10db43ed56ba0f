import FerryModel

/// Whether an update may set an attribute, as far as derived attributes go. Core Data computes a
/// derived attribute when it saves the object (an app cannot set one), so setting it by hand
/// stores a value its derivation disagrees with, and setting an attribute a derivation reads
/// (`lowercase:(name)`, `project.name`) leaves the derived value stale: ferry refuses both.
/// Aggregates (`count:(…)`, `sum:(…)`) are not checked: Core Data keeps them with triggers in the
/// store (`Z_DA_…`), which run on ferry's writes too.
enum DerivedAttributeCheck {
    /// Throws `.derivedAttribute` when `attribute` (declared by `owner`) is derived, and
    /// `.readByDerivedAttribute` when a derivation anywhere in `model` reads it.
    static func check(_ attribute: Attribute, declaredBy owner: String, in model: ManagedObjectModel) throws(StoreMutationError) {
        if attribute.isDerived {
            throw .derivedAttribute(entity: owner, attribute: attribute.name, derivation: attribute.derivationExpression ?? "")
        }
        for entity in model.entities {
            for derived in entity.attributes where derived.isDerived {
                let derivation = derived.derivationExpression ?? ""
                guard !isAggregate(derivation) else { continue }
                for keyPath in keyPaths(in: derivation) {
                    guard let read = reads(keyPath, from: entity.name, in: model), read == (owner, attribute.name) else { continue }
                    throw .readByDerivedAttribute(entity: owner, attribute: attribute.name,
                                                  derived: "\(entity.name).\(derived.name)", derivation: derivation)
                }
            }
        }
    }

    /// Whether a derivation is one Core Data keeps with triggers: a count or a sum over a to-many.
    private static func isAggregate(_ derivation: String) -> Bool {
        derivation.hasPrefix("count:(") || derivation.hasPrefix("sum:(")
    }

    /// The key paths of a derivation: runs of letters, digits, `_` and `.` that are not a
    /// function's name (followed by `:` or `(`) nor a number or a quoted string.
    static func keyPaths(in derivation: String) -> [[Substring]] {
        var paths: [[Substring]] = []
        var quote: Character?
        var index = derivation.startIndex
        while index < derivation.endIndex {
            let character = derivation[index]
            if let open = quote {
                if character == open { quote = nil }
                index = derivation.index(after: index)
                continue
            }
            if character == "\"" || character == "'" {
                quote = character
                index = derivation.index(after: index)
                continue
            }
            guard isKeyCharacter(character) else {
                index = derivation.index(after: index)
                continue
            }
            let end = derivation[index...].firstIndex { !isKeyCharacter($0) && $0 != "." } ?? derivation.endIndex
            let run = derivation[index..<end]
            let next = derivation[end...].first { $0 != " " }
            if next != ":" && next != "(", let first = run.first, !first.isNumber {
                paths.append(run.split(separator: ".", omittingEmptySubsequences: false))
            }
            index = end
        }
        return paths
    }

    /// The attribute a key path read on objects of `entity` ends at, as (declaring entity, name),
    /// following its relationships; nil when it does not end at an attribute.
    private static func reads(_ keyPath: [Substring], from entity: String, in model: ManagedObjectModel) -> (String, String)? {
        guard let last = keyPath.last else { return nil }
        var current = entity
        for key in keyPath.dropLast() {
            guard let relationship = model.allRelationships(of: current).first(where: { $0.name == key }) else { return nil }
            current = relationship.destinationEntity
        }
        guard let owner = model.declaringEntity(ofProperty: String(last), in: current),
              owner.attributes.contains(where: { $0.name == last }) else { return nil }
        return (owner.name, String(last))
    }

    private static func isKeyCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }
}
