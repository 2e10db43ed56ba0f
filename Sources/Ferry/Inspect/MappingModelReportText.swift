import FerryFormats
/// Renders a `MappingModelReport` as aligned, readable text.
public enum MappingModelReportText {
    public static func render(_ report: MappingModelReport) -> String {
        let count = report.entityMappings.count
        var out = "mapping model \(report.path): \(count) entity mapping\(count == 1 ? "" : "s")\n"
        for mapping in report.entityMappings {
            out += "\nentity mapping \(mapping.name) (\(mapping.type))\n"
            out += "  \(mapping.source ?? "(no source)") → \(mapping.destination ?? "(no destination)")\n"
            if let hash = mapping.sourceVersionHash { out += "  source hash      \(hash)\n" }
            if let hash = mapping.destinationVersionHash { out += "  destination hash \(hash)\n" }
            if let expression = mapping.sourceExpression { out += "  source objects   \(expression)\n" }
            if let policy = mapping.migrationPolicyClass { out += "  policy class     \(policy)\n" }
            let sections = [("attributes", mapping.attributes, "the destination's default"), ("relationships", mapping.relationships, "no links")]
            for (title, properties, none) in sections where !properties.isEmpty {
                out += "  \(title):\n" + TextTable.render(properties.map { [$0.name, $0.expression ?? none] }, indent: "    ")
            }
        }
        return out
    }
}
