/// What a store holds that no Ferry job carries into the stores, exports and databases it
/// writes, counted by the store's census: Core Data's own records, and tables outside Core Data's
/// layout. Every job that reads a whole store names it, so nothing leaves without a word.
public struct LeftBehind: Sendable, Equatable {
    /// Core Data's own records, by `Z_NAME`: its persistent history (`TRANSACTION`, `CHANGE`,
    /// `TRANSACTIONSTRING`) and CloudKit's mirroring metadata (`NSCK…`).
    public var frameworkRecords: [String: Int64]
    /// Tables that are neither an entity's, a many-to-many join's nor Core Data's bookkeeping (an
    /// app's own SQL tables, the shadow tables of a full-text index, legacy iCloud's `Y_UB…`),
    /// by name, with their rows. Tables without rows are left out: nothing of theirs is lost.
    public var otherTables: [String: Int64]
    /// Views and triggers Core Data does not make (all but its `Z_DA_…` derived-attribute
    /// triggers: an app's own, such as those keeping a full-text index in step with an entity
    /// table), as `trigger NAME` or `view NAME`, sorted. No data, but an app that relies on them
    /// (its search index updated on every save) would find them gone.
    public var otherSchema: [String]

    public init(frameworkRecords: [String: Int64] = [:], otherTables: [String: Int64] = [:], otherSchema: [String] = []) {
        self.frameworkRecords = frameworkRecords.filter { $0.value > 0 }
        self.otherTables = otherTables.filter { $0.value > 0 }
        self.otherSchema = otherSchema.sorted()
    }

    public var isEmpty: Bool { frameworkRecords.isEmpty && otherTables.isEmpty && otherSchema.isEmpty }

    /// One sentence per kind left behind, saying what follows from it:
    /// `Core Data's own records are not carried: CHANGE 298, TRANSACTION 84 (…)`.
    public var warnings: [String] {
        var lines: [String] = []
        if !frameworkRecords.isEmpty {
            var consequences: [String] = []
            if frameworkRecords.keys.contains(where: PrimaryKeyEntry.historyEntityNames.contains) {
                consequences.append("its persistent history starts anew, so a history token an app saved names no transaction")
            }
            if frameworkRecords.keys.contains(where: { $0.hasPrefix(PrimaryKeyEntry.mirroringEntityPrefix) }) {
                consequences.append("it has no CloudKit mirroring metadata, so an app mirroring it would upload every object again")
            }
            lines.append("Core Data's own records are not carried: \(Self.counts(frameworkRecords))"
                + (consequences.isEmpty ? "" : " (" + consequences.joined(separator: "; ") + ")"))
        }
        if !otherTables.isEmpty {
            let rows = otherTables.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value) row\($0.value == 1 ? "" : "s"))" }
            lines.append("tables outside Core Data's layout are not carried: \(rows.joined(separator: ", ")) "
                + "(no entity of the model is stored in them; copy the store file itself to keep them)")
        }
        if !otherSchema.isEmpty {
            lines.append("views and triggers outside Core Data's layout are not carried: \(otherSchema.joined(separator: ", ")) "
                + "(the new store has none of them; an app that relies on them must create them again)")
        }
        return lines
    }

    /// `CHANGE 298, TRANSACTION 84`, by name.
    public static func counts(_ rows: [String: Int64]) -> String {
        rows.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
