/// Writes a mapping as a mapping file (`MappingFile`'s format): the starting point of a written
/// mapping, with every inferred rule spelled out and what inference left open as comments.
public enum MappingFileWriter {
    public static func text(for mapping: MappingModel) -> String {
        var out = "# Ferry mapping, inferred: edit the rules inference cannot know; delete the ones it does.\n"
        out += "mapping \"\(mapping.sourceVersion)\" -> \"\(mapping.destinationVersion)\"\n"
        for entity in mapping.entities {
            out += "\nentity \(entity.source)" + (entity.source == entity.destination ? "" : " -> \(entity.destination)") + "\n"
            if let filter = entity.filter { out += "  where \(filter.text)\n" }
            for attribute in entity.attributes {
                let failure = attribute.onFailure == .null ? " on error nil" : ""
                switch attribute.rule {
                case let .convert(_, from, to) where ValueConversion.kind(from: from, to: to) == nil:
                    // As a rule the line would not load: left for the user to write.
                    out += "  # \(attribute.destination) = ?    # \(from.xcodeName) → \(to.xcodeName) is not inferable: "
                        + "a record holding a value is rejected until a rule here says how to carry it\n"
                case let .convert(_, from, to):
                    out += "  \(attribute.destination) = \(value(of: attribute.rule))\(failure)    # \(from.xcodeName) → \(to.xcodeName)\n"
                case .defaultValue: out += "  # \(attribute.destination): no source attribute; takes its default\n"
                case .copy, .expression: out += "  \(attribute.destination) = \(value(of: attribute.rule))\(failure)\n"
                }
            }
            for relationship in entity.relationships { out += "  \(relationship.destination) <- \(relationship.source)\n" }
            if let policy = entity.duplicates {
                let attributes = entity.identity.map { $0.joined(separator: ", ") + " " } ?? ""
                out += "  unique \(attributes)\(policy.writtenForm)\n"
            }
        }
        for name in mapping.addedEntities { out += "\n# entity \(name): new; no source entity feeds it\n" }
        for name in mapping.droppedEntities { out += "# entity \(name): not in \(mapping.destinationVersion); its records are dropped\n" }
        for hint in mapping.suggestions { out += "# hint: \(hint)\n" }
        return out
    }

    /// The right-hand side of a rule as a mapping file writes it: the source attribute (quoted
    /// where it is not a plain name), the expression, or `default`.
    static func value(of rule: ValueRule) -> String {
        switch rule {
        case .copy(let source), .convert(let source, _, _): MappingExpression(attribute: source).description
        case .defaultValue: "default"
        case .expression(let expression): expression.description
        }
    }
}
