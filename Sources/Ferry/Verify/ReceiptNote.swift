import FerryStore
import FerryVerify

/// What `ferry verify STORE` (without `--against`) says of the receipt a migration left in the
/// store (`MigrationReceipt`): whether the store's records and pairs are still the ones that
/// migration verified. An app writing the store changes them, so a difference is a note, not a
/// failure; `verify --against` proves the store against its sources.
public enum ReceiptNote {
    /// The note on the store at `store`, verified as `report` (with fingerprints); nil when the
    /// store has no receipt, the report no fingerprints, or the two share no subject (the store
    /// was read with another model).
    public static func note(store: String, report: VerificationReport) -> String? {
        guard !report.fingerprints.isEmpty, let metadata = try? CoreDataStoreReader(path: store).metadata else { return nil }
        let found: MigrationReceipt?
        do { found = try MigrationReceipt.read(from: metadata) } catch { return "receipt: not readable (\(error))" }
        guard let receipt = found else { return nil }
        let compared = (receipt.fingerprints + receipt.edgeFingerprints, report.fingerprints + report.edgeFingerprints)
        let subjects = Set(compared.0.map(\.subject)).intersection(compared.1.map(\.subject)).sorted()
        guard !subjects.isEmpty else { return nil }
        let changed = subjects.filter { subject in compared.0.first { $0.subject == subject } != compared.1.first { $0.subject == subject } }
        guard !changed.isEmpty else {
            return "receipt (written \(receipt.written)): the records and pairs are as the migration that wrote the store verified them"
        }
        return "receipt (written \(receipt.written)): changed since the migration that wrote the store verified it: "
            + changed.joined(separator: ", ") + " (an app writing the store changes them; --against proves the store against its sources)"
    }
}
