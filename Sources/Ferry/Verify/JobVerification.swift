import FerryMigration
import FerryModel
import FerryStore
import FerryVerify

/// The check that follows every import and migration: the store checks of `StoreVerifier`
/// (integrity, bookkeeping, version hashes, every key and join row, required and unique values)
/// plus the job's own accounting: every record read is written, merged, rejected or filtered
/// (and every line read that holds no record is skipped), and the store holds exactly the rows the job says it wrote (`JobAccounting`).
public enum JobVerification {
    /// Verifies `store` and adds the accounting section. The store's rows are the report's entity
    /// tallies (counted by the value scan) when the store checks all held, so every row has an
    /// entity of the model and the bookkeeping is sound; otherwise they are counted again.
    ///
    /// - Parameters:
    ///   - path: where the store is read, when that is not yet `store` (a store being built);
    ///     the report names `store`.
    ///   - fingerprints: also compute the record and pair fingerprints (for a receipt).
    ///   - derivedValues: how the writer left derived counts; computed ones must hold.
    public static func verify(store: String, at path: String? = nil, model: ManagedObjectModel, accounting: JobAccounting,
                              fingerprints: Bool = false, derivedValues: DerivedValues) throws(VerificationError) -> VerificationReport
    {
        let path = path ?? store
        var report = try StoreVerifier(path: path, model: .model(model))
            .verify(options: VerificationOptions(fullIntegrityCheck: false, fingerprints: fingerprints,
                                                 derivedCountsAreComputed: derivedValues == .derived))
        report.store = store
        report.append(accounting.section(storeRows: tallied(report, model: model) ?? storeRows(path, model: model)))
        return report
    }

    /// Why the store built at `path` for `store` could not be verified, naming `store` where the
    /// error names the file it is built in: a name the user never gave, gone when the run ends.
    static func unverifiableReason(_ error: some Error, builtAt path: String, for store: String) -> String {
        "\(error)".replacing(path, with: store)
    }

    /// The rows of every root entity's table by the report's tallies; nil when the `store`
    /// section failed (rows of unknown entities, a check that could not run, stale bookkeeping).
    static func tallied(_ report: VerificationReport, model: ManagedObjectModel) -> Int64? {
        guard let section = report.section(named: "store"), section.failures.isEmpty else { return nil }
        var total: Int64 = 0
        for root in model.entities where root.parentName == nil {
            guard let tally = report.entities.first(where: { $0.entity == root.name }) else { return nil }
            total += tally.rows
        }
        return total
    }

    /// Rows of every root entity's table.
    static func storeRows(_ path: String, model: ManagedObjectModel) -> Int64? {
        guard let store = try? CoreDataStoreReader(path: path) else { return nil }
        var total: Int64 = 0
        for root in model.entities where root.parentName == nil {
            guard let count = try? store.count(for: root.name) else { return nil }
            total += count
        }
        return total
    }
}

/// A job's accounting: ledgers balance (every record read is written, merged, rejected or
/// filtered, every line read that holds no record skipped), and the store holds exactly the rows the job says it wrote plus the links it created.
public struct JobAccounting: Sendable {
    let ledgers: [Ledger]
    /// The records the job wrote, or nil when the store held rows before (appending), so the rows
    /// cannot be compared.
    let written: Int?
    let created: Int
    let store: String
    let model: ManagedObjectModel

    struct Ledger: Sendable, Codable, Equatable {
        let subject: String
        let read: Int
        let accounted: Int
    }

    /// The accounting section, given the rows the store holds (nil when they could not be counted).
    func section(storeRows rows: @autoclosure () -> Int64?) -> VerificationSection {
        var section = VerificationSection(name: "accounting")
        for ledger in ledgers {
            section.checks += 1
            if ledger.read != ledger.accounted {
                section.failures.append(VerificationFailure(
                    check: "ledger", subject: ledger.subject,
                    message: "read \(ledger.read), but written, merged, rejected, filtered and skipped add up to \(ledger.accounted)"))
            }
        }
        guard let written else { return section }
        section.checks += 1
        let rows = rows()
        if rows != Int64(written + created) {
            section.failures.append(VerificationFailure(
                check: "row-count", subject: store,
                message: "the store holds \(rows.map(String.init) ?? "an unknown number of") rows; the job wrote \(written) and created \(created)"))
        }
        return section
    }
}

extension VerificationReport {
    /// Adds a job's accounting section, the job's store counted on its own.
    mutating func append(_ accounting: JobAccounting) {
        append(accounting.section(storeRows: JobVerification.storeRows(accounting.store, model: accounting.model)))
    }
}

extension JobAccounting.Ledger {
    /// A pipeline's ledger of one source and entity.
    init(_ ledger: SourceLedger) {
        self.init(subject: "\(ledger.source) \(ledger.entity)", read: ledger.read,
                  accounted: ledger.written + ledger.merged + ledger.rejected + ledger.filtered + ledger.skipped)
    }
}

extension MigrationSummary {
    /// The accounting section of this migration's store.
    func accounting(model: ManagedObjectModel) -> JobAccounting {
        JobAccounting(
            ledgers: ledgers.map(JobAccounting.Ledger.init),
            written: written.values.reduce(0, +), created: links.reduce(0) { $0 + $1.created }, store: outputPath, model: model)
    }
}

extension ImportSummary {
    /// The accounting section of this import's store; `appended` when the store held rows before.
    func accounting(model: ManagedObjectModel, appended: Bool) -> JobAccounting {
        JobAccounting(
            ledgers: ledgers.map(JobAccounting.Ledger.init),
            written: appended ? nil : written + carried.values.reduce(0) { $0 + $1.written }, created: links.reduce(0) { $0 + $1.created }, store: outputPath, model: model)
    }
}
