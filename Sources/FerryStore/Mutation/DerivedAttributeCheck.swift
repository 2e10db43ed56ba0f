import FerryModel

/// What an update or a delete may change, as far as derived attributes go. Core Data computes a
/// derived attribute when it saves the object (an app cannot set one), so setting it by hand
/// stores a value its derivation disagrees with, and changing what a derivation reads
/// (`lowercase:(title)` reads `title`, `project.name` reads `project` and `Project.name`) leaves
/// the derived value stale: ferry refuses both. A derived attribute the store keeps with Core
/// Data's triggers (`Z_DA_<table>_<Entity>_<attribute>_…`, as for `count:(pages)`) is kept up to
/// date by those triggers, which run on ferry's writes too, so what it reads may change: a count
/// Ferry knows the triggers of (`StoreLayout.derivedAttributes`) only when the store has every one
/// of its five (one missing leaves the count stale on the change it would have followed), any
/// other derivation when the store has a trigger named for it.
struct DerivedAttributeCheck {
    let model: ManagedObjectModel
    /// `Entity.attribute` of the derived attributes the store's triggers keep.
    let keptByTriggers: Set<String>

    /// Reads the store's `Z_DA_` triggers.
    init(store: MutableStore) throws(StoreMutationError) {
        model = store.model
        let names = try StoreMutationError.sqlite { () throws(SQLiteError) in
            let statement = try store.database.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z\\_DA\\_%' ESCAPE '\\'")
            var names: Set<String> = []
            while try statement.step() { names.insert(statement.string(at: 0) ?? "") }
            return names
        }
        let counts = Dictionary(store.layout.derivedAttributes.map { ("\($0.entity).\($0.attribute)", $0.triggers) },
                                uniquingKeysWith: { first, _ in first })
        var kept: Set<String> = []
        for entity in store.model.entities {
            for derived in entity.attributes where derived.isDerived {
                let subject = "\(entity.name).\(derived.name)"
                let isKept = if let triggers = counts[subject] {
                    triggers.allSatisfy { names.contains($0.name) }
                } else {
                    names.contains(where: { $0.contains("_\(entity.name)_\(derived.name)_") })
                }
                if isKept { kept.insert(subject) }
            }
        }
        keptByTriggers = kept
    }

    /// Throws `.derivedAttribute` when `attribute` (declared by `owner`) is derived, and
    /// `.readByDerivedAttribute` when a derivation no trigger keeps reads it.
    func check(_ attribute: Attribute, declaredBy owner: String) throws(StoreMutationError) {
        if attribute.isDerived {
            throw .derivedAttribute(entity: owner, attribute: attribute.name, derivation: attribute.derivationExpression ?? "")
        }
        try checkReads(owner, attribute.name)
    }

    /// Throws `.readByDerivedAttribute` when a derivation no trigger keeps reads the property
    /// `name` declared by `owner` (an attribute, or a relationship a key path goes through).
    func checkReads(_ owner: String, _ name: String) throws(StoreMutationError) {
        for entity in model.entities {
            for derived in entity.attributes where derived.isDerived && !keptByTriggers.contains("\(entity.name).\(derived.name)") {
                let derivation = derived.derivationExpression ?? ""
                for keyPath in DerivationExpression.keyPaths(in: derivation) where properties(of: keyPath, from: entity.name).contains(where: { $0 == (owner, name) }) {
                    throw .readByDerivedAttribute(entity: owner, attribute: name,
                                                  derived: "\(entity.name).\(derived.name)", derivation: derivation)
                }
            }
        }
    }

    /// The properties a key path reads on objects of `entity`, each as (declaring entity, name),
    /// following its relationships as far as the model has them.
    private func properties(of keyPath: [Substring], from entity: String) -> [(String, String)] {
        var result: [(String, String)] = []
        var current = entity
        for key in keyPath {
            guard let owner = model.declaringEntity(ofProperty: String(key), in: current) else { break }
            result.append((owner.name, String(key)))
            guard let relationship = owner.relationships.first(where: { $0.name == key }) else { break }
            current = relationship.destinationEntity
        }
        return result
    }
}
