import FerryFormats

/// Renders a `ModelReport` as aligned, readable text.
public enum ModelReportText {
    public static func render(_ report: ModelReport) -> String {
        var out = "model \(report.model): \(report.versions.count) version\(report.versions.count == 1 ? "" : "s"), current \(report.currentVersion)\n"
        for version in report.versions {
            out += "\nversion \(version.name)\(version.isCurrent ? " (current)" : "")"
            if let identifier = version.versionIdentifier, !identifier.isEmpty { out += "  identifier \(identifier)" }
            out += "\n  checksum \(version.checksum)\n  digest   \(version.digest)\n"
            for entity in version.entities { out += render(entity) }
        }
        return out
    }

    private static func render(_ entity: ModelReport.EntityReport) -> String {
        var header = "\n  entity \(entity.name)"
        if let parent = entity.parent { header += " : \(parent)" }
        if entity.isAbstract { header += " (abstract)" }
        if let renaming = entity.renamingIdentifier { header += "  renamed from \(renaming)" }
        var out = header + "\n    hash \(entity.versionHash)\n"
        let attributeRows = entity.attributes.map { attribute -> [String] in
            var notes: [String] = []
            if attribute.isTransient { notes.append("transient") }
            if let derivation = attribute.derivation { notes.append("derived \(derivation)") }
            if let value = attribute.defaultValue { notes.append("default \(quoted(value))") }
            if attribute.allowsExternalStorage { notes.append("external storage") }
            notes += attribute.validation
            if let renaming = attribute.renamingIdentifier { notes.append("renamed from \(renaming)") }
            return [attribute.name, attribute.type, attribute.isOptional ? "optional" : "required", notes.joined(separator: ", ")]
        }
        let relationshipRows = entity.relationships.map { relationship -> [String] in
            var notes = ["inverse \(relationship.inverse ?? "none")", "delete \(relationship.deleteRule)"]
            if relationship.minCount > 0 || (relationship.isToMany && relationship.maxCount > 0) {
                notes.append("count \(relationship.minCount)...\(relationship.maxCount == 0 ? "*" : String(relationship.maxCount))")
            }
            if let renaming = relationship.renamingIdentifier { notes.append("renamed from \(renaming)") }
            let cardinality = relationship.isToMany ? (relationship.isOrdered ? "to-many ordered" : "to-many") : "to-one"
            return [relationship.name, "→ \(relationship.destination)", cardinality,
                    (relationship.isOptional ? "optional, " : "required, ") + notes.joined(separator: ", ")]
        }
        out += TextTable.render(attributeRows + relationshipRows, indent: "    ")
        for constraint in entity.uniquenessConstraints {
            out += "    unique (\(constraint.joined(separator: ", ")))\n"
        }
        return out
    }

    private static func quoted(_ value: String) -> String { "\"\(value)\"" }
}
