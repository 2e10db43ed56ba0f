import FerryStore

/// The text `ferry delete` prints: per entity what is deleted (matched or cascaded, and
/// through which relationship), per relationship what is nullified or left dangling, join rows
/// removed, destinations unlinked from a to-many without an inverse, the Deny blocks, the
/// objects that stay whose required relationships the delete would leave short, and those whose
/// keys no delete rule clears.
public enum DeletePlanReport {
    public static func text(_ plan: DeletePlan, dryRun: Bool) -> String {
        var lines: [String] = []
        let verb = dryRun ? "would be" : "were"
        var counts: [String: (matched: Int, cascaded: [String: Int])] = [:]
        for deleted in plan.deleted {
            var entry = counts[deleted.object.entity] ?? (0, [:])
            if let relationship = deleted.relationship { entry.cascaded[relationship, default: 0] += 1 } else { entry.matched += 1 }
            counts[deleted.object.entity] = entry
        }
        let single = plan.deleted.count == 1
        lines.append("\(plan.deleted.count) \(single ? "object" : "objects") \(dryRun ? "would be" : single ? "was" : "were") deleted")
        for entity in counts.keys.sorted() {
            guard let entry = counts[entity] else { continue }
            var parts = entry.matched > 0 ? ["\(entry.matched) matched"] : []
            parts += entry.cascaded.keys.sorted().map { "\(entry.cascaded[$0] ?? 0) by cascade through \($0)" }
            let keys = plan.deleted.filter { $0.object.entity == entity }.map(\.object.primaryKey)
            lines.append("  \(entity): \(keys.count) (\(parts.joined(separator: ", "))): Z_PK \(PrimaryKeyListText.list(keys))")
        }
        section("references \(verb) nullified", plan.nullified, into: &lines)
        section("references left dangling (No Action)", plan.dangling, into: &lines)
        if !plan.joinRowsRemoved.isEmpty {
            lines.append("join-table rows \(verb) removed")
            for table in plan.joinRowsRemoved.keys.sorted() { lines.append("  \(table): \(plan.joinRowsRemoved[table] ?? 0)") }
        }
        section("destinations \(verb) unlinked (the key of a to-many relationship without an inverse cleared)", plan.unlinked, into: &lines)
        if !plan.modified.isEmpty { lines.append("surviving objects \(verb) changed (Z_OPT + 1): \(plan.modified.count)") }
        if dryRun, !plan.externalFiles.isEmpty {
            lines.append("external data files of their values that would be removed: \(plan.externalFiles.count)")
        } else if !plan.externalFiles.isEmpty {
            let kept = plan.externalFilesRemoved < plan.externalFiles.count ? " (the others are still named by other rows, or could not be removed)" : ""
            lines.append("external data files of their values removed: \(plan.externalFilesRemoved) of \(plan.externalFiles.count)\(kept)")
        }
        if !plan.blocked.isEmpty {
            lines.append("blocked by Deny rules (nothing \(dryRun ? "would be" : "was") deleted)")
            for block in plan.blocked {
                lines.append("  \(block.object) through \(block.relationship): still has \(block.destination.entity) Z_PK \(block.destination.primaryKey)")
            }
        }
        if !plan.invalidated.isEmpty {
            lines.append("blocked by required relationships that would be left short (nothing \(dryRun ? "would be" : "was") deleted)")
            lines += plan.invalidated.map { "  \($0)" }
        }
        if !plan.stranded.isEmpty {
            lines.append("blocked by keys of objects that stay that no delete rule clears, a relationship without an inverse "
                + "or whose inverse's key is empty (nothing \(dryRun ? "would be" : "was") deleted)")
            lines += StrandedReference.summary(plan.stranded).map { "  \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per relationship: how many references, then the objects that hold them, each
    /// once, by their own entity (a sub-entity's objects under its name).
    private static func section(_ heading: String, _ references: [Nullification], into lines: inout [String]) {
        guard !references.isEmpty else { return }
        lines.append(heading)
        var byRelationship: [String: [Nullification]] = [:]
        for reference in references { byRelationship[reference.relationship ?? reference.via, default: []].append(reference) }
        for name in byRelationship.keys.sorted() {
            let held = byRelationship[name] ?? []
            var entities: [String] = []
            var keys: [String: [Int64]] = [:]
            var seen: Set<ObjectKey> = []
            for reference in held where seen.insert(reference.object).inserted {
                if keys[reference.object.entity] == nil { entities.append(reference.object.entity) }
                keys[reference.object.entity, default: []].append(reference.object.primaryKey)
            }
            let objects = entities.map { "\($0) Z_PK \(PrimaryKeyListText.list(keys[$0] ?? []))" }.joined(separator: "; ")
            lines.append("  \(name): \(held.count) (\(objects))")
        }
    }
}
