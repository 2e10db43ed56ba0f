import FerryFormats
import Ferry
import FerryModel

/// "Did you mean …?" for the entity and version names a failed command gave that its model
/// (`--model`) does not have: the values of its options of kind `.entity` and `.version`, and the
/// `ENTITY@VERSION:` of its sources. Only names that no version of the model knows get a hint, so a
/// hint never contradicts the error it follows.
struct ModelNameHints {
    /// One line per mistyped name, each starting with a line break; empty when none.
    let text: String

    init(_ arguments: ParsedArguments, options: [OptionSpec], sources: [MigrationSource] = []) {
        guard let path = arguments.value("model"), let bundle = try? XcodeModelLoader.loadBundle(at: path) else {
            text = ""
            return
        }
        let versions = bundle.versions.map(\.name)
        var entities: [String] = []
        for version in bundle.versions {
            for entity in version.entities.map(\.name) where !entities.contains(entity) { entities.append(entity) }
        }
        var given: [(name: String, kind: String, known: [String])] = []
        for option in options {
            let known: [String]
            switch option.kind {
            case .entity: known = entities
            case .version: known = versions
            default: continue
            }
            for value in arguments.values[option.name] ?? [] { given.append((value, option.kind == .entity ? "entity" : "version", known)) }
        }
        for source in sources {
            guard case let .file(entity, version) = source.kind else { continue }
            given.append((entity, "entity", entities))
            if let version { given.append((version, "version", versions)) }
        }
        text = given.compactMap { name, kind, known in
            guard !known.contains(name), let closest = NameSuggestion.closest(to: name, among: known) else { return nil }
            return "\n  \(kind) '\(name)': did you mean '\(closest)'?"
        }.joined()
    }
}
