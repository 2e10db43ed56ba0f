import FerryMigration
import FerryModel
import FerryStore
import FerryVerify

/// The check that follows every import and migration: the store checks of `StoreVerifier`
/// (integrity, bookkeeping, version hashes, every key and join row, required and unique values)
/// plus the job's own accounting: every record read is written, merged, rejected or filtered,
/// and the store holds exactly the rows the job says it wrote.
public enum JobVerification {
    /// Verifies `store` and adds the accounting section.
    public static func verify(store: String, model: ManagedObjectModel, accounting: VerificationSection)
        throws(VerificationError) -> VerificationReport
    {
        var report = try StoreVerifier(path: store, model: .model(model))
            .verify(options: VerificationOptions(fullIntegrityCheck: false, fingerprints: false))
        report.append(accounting)
        return report
    }

    /// Ledgers balance, and the store's rows are the records written plus the destinations links created.
    /// - Parameter written: the records the job wrote, or nil when the store held rows before
    ///   (appending), so the rows cannot be compared.
    static func accounting(ledgers: [(subject: String, read: Int, accounted: Int)], written: Int?, created: Int,
                           store: String, model: ManagedObjectModel) -> VerificationSection {
        var section = VerificationSection(name: "accounting")
        for ledger in ledgers {
            section.checks += 1
            if ledger.read != ledger.accounted {
                section.failures.append(VerificationFailure(
                    check: "ledger", subject: ledger.subject,
                    message: "read \(ledger.read), but written, merged, rejected and filtered add up to \(ledger.accounted)"))
            }
        }
        guard let written else { return section }
        section.checks += 1
        let rows = storeRows(store, model: model)
        if rows != Int64(written + created) {
            section.failures.append(VerificationFailure(
                check: "row-count", subject: store,
                message: "the store holds \(rows.map(String.init) ?? "an unknown number of") rows; the job wrote \(written) and created \(created)"))
        }
        return section
    }

    /// Rows of every root entity's table.
    private static func storeRows(_ path: String, model: ManagedObjectModel) -> Int64? {
        guard let store = try? CoreDataStoreReader(path: path) else { return nil }
        var total: Int64 = 0
        for root in model.entities where root.parentName == nil {
            guard let count = try? store.count(for: root.name) else { return nil }
            total += count
        }
        return total
    }
}

extension MigrationSummary {
    /// The accounting section of this migration's store.
    func accounting(model: ManagedObjectModel) -> VerificationSection {
        JobVerification.accounting(
            ledgers: ledgers.map { ("\($0.source) \($0.entity)", $0.read, $0.written + $0.merged + $0.rejected + $0.filtered) },
            written: written.values.reduce(0, +), created: links.reduce(0) { $0 + $1.created }, store: outputPath, model: model)
    }
}

extension ImportSummary {
    /// The accounting section of this import's store; `appended` when the store held rows before.
    func accounting(model: ManagedObjectModel, appended: Bool) -> VerificationSection {
        JobVerification.accounting(
            ledgers: [("\(entity) from \(read) records", read, written + merged + rejected)], written: appended ? nil : written,
            created: links.reduce(0) { $0 + $1.created }, store: outputPath, model: model)
    }
}
