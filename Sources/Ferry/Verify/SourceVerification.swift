import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry verify STORE --against SOURCE…`: proves that a store holds exactly what its sources
/// map to. The sources are migrated again (the mapping is deterministic: the same sources in the
/// same order give the same records, keys and ids) into a private store, and the two are compared
/// fingerprint by fingerprint: every entity over all its attributes, every relationship over its
/// pairs. The re-run's ledger proves that every source record is accounted for.
public enum SourceVerification {
    /// Adds the `against sources` and `accounting` sections to the store's own report.
    public static func verify(store: String, against request: MigrateRequest) throws(MigrateError) -> VerificationReport {
        // A store that cannot be read fails now, not after the sources were migrated again.
        do { _ = try CoreDataStoreReader(path: store) } catch { throw .store(source: store, reason: "\(error)") }
        let folder = FileManager.default.temporaryDirectory.path + "/ferry-verify-\(UUID().uuidString)"
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false) } catch {
            throw .store(source: folder, reason: "cannot make a private folder: \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rerun = request
        rerun.outputPath = folder + "/expected.sqlite"
        rerun.replaceExisting = false
        rerun.dryRun = false
        rerun.verify = false
        let summary = try MigrateJob(request: rerun).run()
        do {
            let expectedStore = try StoreVerifier(path: rerun.outputPath, model: .modelCache)
            let model = VerificationModel.model(expectedStore.model)
            var report = try StoreVerifier(path: store, model: model).verify()
            let expected = try expectedStore.verify(options: VerificationOptions(fullIntegrityCheck: false))
            report.append(FingerprintComparison.section(named: "against sources", expected: expected.fingerprints, actual: report.fingerprints))
            report.append(FingerprintComparison.section(named: "pairs against sources", expected: expected.edgeFingerprints,
                                                        actual: report.edgeFingerprints))
            var ledger = summary
            ledger.outputPath = rerun.outputPath
            report.append(ledger.accounting(model: expectedStore.model))
            return report
        } catch {
            throw .store(source: store, reason: "\(error)")
        }
    }
}
