import FerryFormats
import FerryMigration
import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry verify STORE --against SOURCE…`: proves that a store holds exactly what its sources
/// map to, every entity over all its attributes and every relationship over its pairs, and that
/// every source record is accounted for. Two ways, the store's own verification running on the
/// other core meanwhile:
///
/// - **By its receipt**, when the store has one (`MigrationReceipt`, written by a verified
///   `ferry migrate`) and the sources, model, mapping files, options and Ferry version have the
///   digests it records: the store's fingerprints are compared with the ones it records, and its
///   rows with its ledger. Taking the digests reads each input once.
/// - **By migrating again** otherwise, or when asked (`rerun`): the mapping is deterministic (the
///   same sources in the same order give the same records, keys and ids), so the sources are
///   migrated into a private store and the two are compared fingerprint by fingerprint; the
///   re-run's ledger accounts for every source record. The private store is written without the
///   final switch to WAL and sync (it is read once and deleted), and only fingerprinted.
///
/// The report's notes say which way was taken and why.
public enum SourceVerification {
    /// Adds the `against sources` and `accounting` sections to the store's own report.
    /// `progress` is told the phases of migrating the sources again, when that is the way taken,
    /// and of the comparison.
    public static func verify(store: String, against request: MigrateRequest, rerun: Bool = false,
                              progress: @escaping (JobProgress) -> Void = { _ in }) throws(MigrateError) -> VerificationReport {
        // A store that cannot be read fails now, not after the sources were migrated again.
        let metadata: StoreMetadataInfo
        do { metadata = try CoreDataStoreReader(path: store).metadata } catch { throw .store(source: store, reason: ErrorText.reason(of: error, at: store)) }
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        let actual = BackgroundWork<VerificationReport, VerificationError> {
            Result { () throws(VerificationError) in try StoreVerifier(path: store, model: .bundle(bundle)).verify() }
        }
        let identity = try identitySection(metadata, request: request)
        var report = try comparison(store, against: request, rerun: rerun, metadata: metadata, bundle: bundle, actual: actual, progress: progress)
        if let identity { report.append(identity) }
        return report
    }

    /// The store's UUID against the one its sources give it (`StoreIdentity`): migrated from a
    /// store, it keeps that store's UUID, so the `x-coredata://` URIs an app saved stay valid. No
    /// fingerprint covers it. When the sources give a new UUID (no store among them), against the
    /// one the migration wrote, as its receipt keeps it; nil when there is neither.
    private static func identitySection(_ metadata: StoreMetadataInfo, request: MigrateRequest) throws(MigrateError) -> VerificationSection? {
        let identity = try StoreIdentity.choose(for: request.sources)
        let expected: (uuid: String, origin: String)
        if let source = identity.keptFrom {
            expected = (identity.uuid.text, source + " gives it")
        } else if let written = (try? MigrationReceipt.read(from: metadata))?.storeUUID {
            expected = (written, "the migration that wrote it gave it")
        } else {
            return nil
        }
        var section = VerificationSection(name: "identity against sources", checks: 1)
        // Byte for byte: the text is part of every object's URI.
        if metadata.storeUUID.text != expected.uuid {
            section.failures.append(VerificationFailure(check: "store-uuid", subject: "Z_METADATA.Z_UUID",
                                                        message: "the store's UUID is \(metadata.storeUUID.text); \(expected.origin) \(expected.uuid)"))
        }
        return section
    }

    /// The `against sources` comparison, by the store's receipt or by migrating the sources again.
    private static func comparison(_ store: String, against request: MigrateRequest, rerun: Bool, metadata: StoreMetadataInfo,
                                   bundle: ModelBundle, actual: BackgroundWork<VerificationReport, VerificationError>,
                                   progress: @escaping (JobProgress) -> Void) throws(MigrateError) -> VerificationReport {
        let reason: String
        if rerun {
            reason = "asked to (--rerun)"
        } else {
            switch receipt(in: metadata) {
            case .failure(let unreadable):
                reason = "its receipt cannot be read (\(unreadable))"
            case .success(nil):
                reason = "it has no receipt (it was not written by a verified ferry migrate)"
            case .success(let receipt?):
                let changed = receipt.inputs.differences(from: try MigrationInputs.of(request, bundle: bundle))
                if changed.isEmpty {
                    let name = request.targetVersion ?? bundle.currentVersionName
                    guard let model = bundle.version(named: name) else { throw .unknownVersion(name, available: bundle.versions.map(\.name)) }
                    progress(JobProgress(phase: "checking the store and its receipt"))
                    return try compare(store, with: receipt, actual: actual, model: model)
                }
                reason = "inputs differ from its receipt's: \(changed.joined(separator: ", "))"
            }
        }
        return try migrateAgain(store, request: request, bundle: bundle, actual: actual, reason: reason, progress: progress)
    }

    private static func receipt(in metadata: StoreMetadataInfo) -> Result<MigrationReceipt?, any Error> {
        Result { try MigrationReceipt.read(from: metadata) }
    }

    /// The store's fingerprints against its receipt's; its rows against the receipt's ledger.
    private static func compare(_ store: String, with receipt: MigrationReceipt, actual: BackgroundWork<VerificationReport, VerificationError>,
                                model: ManagedObjectModel) throws(MigrateError) -> VerificationReport {
        var report: VerificationReport
        do { report = try actual.wait() } catch { throw .store(source: store, reason: ErrorText.reason(of: error, at: store)) }
        report.notes.append("against sources: by the store's receipt (written \(receipt.written)); all \(receipt.inputs.inputs.count) inputs have the digests it records")
        report.append(FingerprintComparison.section(named: "against sources", expected: receipt.fingerprints, actual: report.fingerprints))
        report.append(FingerprintComparison.section(named: "pairs against sources", expected: receipt.edgeFingerprints,
                                                    actual: report.edgeFingerprints))
        let accounting = receipt.accounting(store: store, model: model)
        report.append(accounting.section(storeRows: JobVerification.tallied(report, model: model)
            ?? JobVerification.storeRows(store, model: model)))
        return report
    }

    /// Migrates the sources again into a private store and compares the two; the store's to-one
    /// pairs are also compared with its source store's own (`SourcePairCheck`).
    private static func migrateAgain(_ store: String, request: MigrateRequest, bundle: ModelBundle,
                                     actual: BackgroundWork<VerificationReport, VerificationError>,
                                     reason: String, progress: @escaping (JobProgress) -> Void) throws(MigrateError) -> VerificationReport {
        let scratch: ScratchFolder
        do { scratch = try ScratchFolder.make(purpose: "verify") } catch {
            throw .store(source: error.path, reason: "cannot make a private folder: \(error.reason)")
        }
        defer { scratch.remove() }
        var rerun = request
        rerun.outputPath = scratch.database("expected.sqlite")
        rerun.replaceExisting = false
        rerun.dryRun = false
        rerun.verify = false
        rerun.durable = false
        let summary = try MigrateJob(request: rerun).run(progress: progress)
        let chain = try MigrationPlanner(bundle: bundle, request: request).chain(options: request.files.coercion)
        do {
            progress(JobProgress(phase: "comparing fingerprints"))
            let expectedStore = try StoreVerifier(path: rerun.outputPath, model: .modelCache)
            let expected = try expectedStore.fingerprints()
            var report = try actual.wait()
            report.notes.append("against sources: migrated again, because \(reason)")
            report.append(FingerprintComparison.section(named: "against sources", expected: expected.records, actual: report.fingerprints))
            report.append(FingerprintComparison.section(named: "pairs against sources", expected: expected.edges,
                                                        actual: report.edgeFingerprints))
            let (pairs, note) = try SourcePairCheck.section(store: store, model: chain.last, chain: chain, summary: summary)
            if let pairs { report.append(pairs) }
            if let note { report.notes.append(note) }
            var ledger = summary
            ledger.outputPath = rerun.outputPath
            report.append(ledger.accounting(model: expectedStore.model))
            return report
        } catch {
            throw .store(source: store, reason: ErrorText.reason(of: error, at: store))
        }
    }
}
