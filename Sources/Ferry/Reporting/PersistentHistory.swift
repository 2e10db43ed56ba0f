import FerryStore

/// Core Data's persistent history, as far as Ferry's changes to a store in place go (`update`,
/// `delete`, `import --append`): Core Data records a transaction for each save of an app, in
/// process (the store has no triggers for it); Ferry's changes are recorded in none, so whatever
/// reads the history (an app's extensions, CloudKit mirroring) does not see them.
public enum PersistentHistory {
    /// The warning for a change made to the store at `path`, when that store keeps history;
    /// nil when it keeps none (or cannot be read).
    public static func unrecordedChange(store path: String) -> String? {
        guard let transactions = try? CoreDataStoreReader(path: path).historyTransactions, transactions > 0 else { return nil }
        return "\(path) keeps Core Data's persistent history (\(transactions) transactions): this change is recorded in none, "
            + "so what reads the history (an app's extensions, CloudKit mirroring) does not see it"
    }
}
