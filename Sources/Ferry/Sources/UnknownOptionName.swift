import FerryFormats
import FerryModel

/// A name an option of legacy sources gives that the model lacks: `--map urlPath=urlPth`,
/// `--link attachment=remotePath`, `--create-missing tgas`. Such an option used to name nothing
/// in silence, and the column it meant was left out or its links matched another way, exit 0.
public struct UnknownOptionName: Error, Equatable, CustomStringConvertible {
    /// The option as given (`--map urlPath=urlPth`).
    public let option: String
    /// What the model lacks, with the closest name it has when one is close.
    public let reason: String

    public var description: String { "\(option): \(reason)" }

    /// Checks `--map KEY=NAME` and `--link RELATIONSHIP=ATTRIBUTE` of `files` before anything is
    /// read. A `--map` names an attribute or relationship of one of `entities` (the entities the
    /// files hold, each in the version it is read in; the records they carry are matched by their
    /// own keys); a `--link` names a relationship some entity of `versions` has and an attribute
    /// of its destination.
    static func check(_ files: FileRecordSource, entities: [(version: ManagedObjectModel, entity: String)],
                      versions: [ManagedObjectModel]) throws(UnknownOptionName) {
        let known = Set(entities.flatMap { $0.version.allAttributes(of: $0.entity).map(\.name) + $0.version.allRelationships(of: $0.entity).map(\.name) })
        for (key, name) in files.keyMap.sorted(by: { $0.key < $1.key }) {
            guard !known.contains(name) else { continue }
            let holders = Set(entities.map(\.entity)).sorted().joined(separator: " or ")
            throw UnknownOptionName(option: "--map \(key)=\(name)", reason: holders.isEmpty
                ? "no file source is given to read it (stores are read by their model)"
                : "\(holders) has no attribute or relationship '\(name)'" + NameSuggestion.hint(for: name, among: known.sorted()))
        }
        for (name, attribute) in files.linkAttributes.sorted(by: { $0.key < $1.key }) {
            let option = "--link \(name)=\(attribute)"
            let relationships = versions.flatMap { version in version.entities.flatMap(\.relationships).map { (version, $0) } }
            let named = relationships.filter { $0.1.name == name }
            guard !named.isEmpty else {
                throw UnknownOptionName(option: option, reason: "no entity has a relationship '\(name)'"
                    + NameSuggestion.hint(for: name, among: Set(relationships.map(\.1.name)).sorted()))
            }
            let destinations = named.map { version, relationship in (relationship.destinationEntity, version.allAttributes(of: relationship.destinationEntity).map(\.name)) }
            guard !destinations.contains(where: { $0.1.contains(attribute) }) else { continue }
            throw UnknownOptionName(option: option, reason: "\(Set(destinations.map(\.0)).sorted().joined(separator: " or ")) has no attribute '\(attribute)'"
                + NameSuggestion.hint(for: attribute, among: destinations.flatMap(\.1)))
        }
    }
}
