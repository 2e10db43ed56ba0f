/// What a job says of the records Core Data keeps for itself in a store (`StoreCensus
/// .frameworkRecords`): its persistent history and CloudKit's mirroring metadata, which no Ferry
/// job carries into the stores or exports it writes.
public enum FrameworkRecords {
    /// `Core Data's own records are not carried: CHANGE 298, TRANSACTION 84 (persistent history: …)`.
    public static func notCarried(_ records: [String: Int64]) -> String {
        let counts = records.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        var consequences: [String] = []
        if records.keys.contains(where: { ["TRANSACTION", "CHANGE", "TRANSACTIONSTRING"].contains($0) }) {
            consequences.append("its persistent history starts anew, so a history token an app saved names no transaction")
        }
        if records.keys.contains(where: { $0.hasPrefix("NSCK") }) {
            consequences.append("it has no CloudKit mirroring metadata, so an app mirroring it would upload every object again")
        }
        return "Core Data's own records are not carried: \(counts)"
            + (consequences.isEmpty ? "" : " (" + consequences.joined(separator: "; ") + ")")
    }
}
