/// The options of a migration request that shape what it writes, as canonical text: every stored
/// property, found by reflection (so an option added later is covered without being listed
/// here), with dictionaries and sets in sorted order. Properties that only say where and how the
/// store is written, and the source paths, are left out.
enum OptionsText {
    /// `MigrateRequest` properties that do not change the records and links written (a limit on
    /// rejects only decides whether a store is written at all), and paths, which are no inputs:
    /// the model and the mapping models are digested by their contents (`MigrationInputs`), so a
    /// model copied elsewhere was taken for changed options.
    static let excluded: Set<String> = ["outputPath", "replaceExisting", "rejectLogPath", "batchSize", "maxErrors", "dryRun",
                                        "verify", "durable", "modelPath", "mappingModels"]

    static func render(_ request: MigrateRequest) -> String {
        var fields: [String] = []
        for child in Mirror(reflecting: request).children {
            guard let label = child.label, !excluded.contains(label) else { continue }
            let value = label == "sources" ? request.sources.map(\.kindDescription).joined(separator: ", ") : render(child.value)
            fields.append("\(label): \(value)")
        }
        return fields.joined(separator: "\n")
    }

    /// Any value: structs and tuples field by field in declaration order, collections in order,
    /// dictionaries and sets sorted, enums by case (with their payloads), the rest as described.
    static func render(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        let children = mirror.children.map { (label: $0.label, text: render($0.value)) }
        switch mirror.displayStyle {
        case .optional:
            return children.first?.text ?? "nil"
        case .dictionary, .set:
            return "[" + children.map(\.text).sorted().joined(separator: ", ") + "]"
        case .collection:
            return "[" + children.map(\.text).joined(separator: ", ") + "]"
        case .struct, .class, .tuple:
            return "{" + children.map { "\($0.label ?? ""): \($0.text)" }.joined(separator: ", ") + "}"
        case .enum:
            guard let payload = children.first else { return String(describing: value) }
            return "\(payload.label ?? "")(\(payload.text))"
        default:
            return String(describing: value)
        }
    }
}
