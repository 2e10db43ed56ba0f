import FerryFormats
import FerryModel

/// Which relationships get their missing destinations created (find or create): those asked
/// for, and those whose values match the destination's only single-attribute uniqueness
/// constraint (`Task.tags` by `Tag.name`), since such a value names exactly one record. Every
/// entity's relationships count: records carry records of other entities (a folder's notes,
/// each with its tags), and their links follow the same rules as the top records'. Except that
/// a destination of an entity the files hold (`Item.parent` by `Item.key`, importing items) is
/// never made unasked: the files hold those records, so one that is missing was rejected or never
/// given, and a made one would be an empty stand-in for it.
enum LinkCreation {
    /// `Entity.relationship` names for the entities of `model`, for files of records of the
    /// entities `imported` (by name; those `model` lacks count for nothing). A requested name is
    /// a relationship (`tags`: of every entity that has one so named) or one entity's (`Note.tags`).
    /// - Throws: a requested name no entity has.
    static func relationships(in model: ManagedObjectModel, imported: Set<String>, linkAttributes: [String: String],
                              requested: Set<String>) throws(UnknownOptionName) -> Set<String> {
        var result = Set<String>()
        let importedRoots = Set(imported.compactMap { model.rootEntity(of: $0)?.name })
        for entity in model.entities {
            for relationship in model.allRelationships(of: entity.name) {
                let name = "\(entity.name).\(relationship.name)"
                if requested.contains(relationship.name) || requested.contains(name) { result.insert(name) }
                guard !importedRoots.contains(model.rootEntity(of: relationship.destinationEntity)?.name ?? relationship.destinationEntity) else { continue }
                let unique = model.ancestry(of: relationship.destinationEntity).flatMap(\.uniquenessConstraints).filter { $0.count == 1 }
                let matched = linkAttributes[relationship.name] ?? (unique.count == 1 ? unique[0][0] : nil)
                if let matched, unique.contains([matched]) { result.insert(name) }
            }
        }
        let known = model.entities.flatMap { entity in model.allRelationships(of: entity.name).flatMap { [$0.name, "\(entity.name).\($0.name)"] } }
        if let unknown = requested.sorted().first(where: { !known.contains($0) }) {
            throw UnknownOptionName(option: "--create-missing \(unknown)", reason: "no entity of \(model.name) has a relationship '\(unknown)'"
                + NameSuggestion.hint(for: unknown, among: Set(known).sorted()))
        }
        return result
    }
}
