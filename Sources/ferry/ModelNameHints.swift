import FerryFormats
import Ferry
import FerryModel

/// "Did you mean …?" for the names a failed command gave that its model does not have: for the
/// file verbs, the values of its options of kind `.entity` and `.version` and the
/// `ENTITY@VERSION:` of its sources, against `--model`; for the store verbs, the entity and the
/// attributes given, against the store's model. Only names the model does not know get a hint, so
/// a hint never contradicts the error it follows.
struct ModelNameHints {
    /// One line per mistyped name, each starting with a line break; empty when none.
    let text: String

    /// Hints for `entity` and the attribute `keys` against the model of `store` (the version of
    /// `modelPath` that matches it, or its model cache).
    init(store: String, modelPath: String?, entity: String, keys: [String] = []) {
        guard let model = try? StoreModelResolver.resolve(forStore: store, bundlePath: modelPath).model else {
            text = ""
            return
        }
        guard var found = model.entity(named: entity) else {
            text = Self.line("entity", entity, among: model.entities.map(\.name))
            return
        }
        var attributes = found.attributes.map(\.name)
        while let parent = found.parentName.flatMap(model.entity(named:)) {
            attributes += parent.attributes.map(\.name)
            found = parent
        }
        text = keys.filter { !attributes.contains($0) }.map { Self.line("attribute", $0, among: attributes) }.joined()
    }

    /// `\n  KIND 'NAME': did you mean 'X'?`, or the empty text when no known name is close.
    private static func line(_ kind: String, _ name: String, among known: [String]) -> String {
        NameSuggestion.closest(to: name, among: known).map { "\n  \(kind) '\(name)': did you mean '\($0)'?" } ?? ""
    }

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
        text = given.filter { !$0.known.contains($0.name) }.map { Self.line($0.kind, $0.name, among: $0.known) }.joined()
    }
}
