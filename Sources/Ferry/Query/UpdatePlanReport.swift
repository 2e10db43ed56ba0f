import FerryStore

/// The text `ferry update --dry-run` prints: how many objects would change, their `Z_PK`s per
/// entity, and what would be set.
public enum UpdatePlanReport {
    public static func text(_ objects: [ObjectKey], assignments: [(key: String, value: String)]) -> String {
        var lines = ["\(objects.count) \(objects.count == 1 ? "object" : "objects") would be updated (Z_OPT + 1), nothing was changed"]
        let byEntity = Dictionary(grouping: objects, by: \.entity)
        for entity in byEntity.keys.sorted() {
            lines.append("  \(entity): Z_PK \(PrimaryKeyListText.list(byEntity[entity, default: []].map(\.primaryKey)))")
        }
        lines.append("set")
        lines += assignments.map { "  \($0.key) = \($0.value.isEmpty ? "NULL" : $0.value)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
