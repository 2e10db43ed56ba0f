import FerryModel
import FerryStore
import FerryVerify
import FoundationEssentials

/// `ferry verify STORE --against SOURCE…`: proves that a store holds exactly what its sources
/// map to. The sources are migrated again (the mapping is deterministic: the same sources in the
/// same order give the same records, keys and ids) into a private store, and the two are compared
/// fingerprint by fingerprint: every entity over all its attributes, every relationship over its
/// pairs. The re-run's ledger proves that every source record is accounted for.
///
/// The re-run writes on one core; the store's own verification runs meanwhile on the other. The
/// private store is written without the final switch to WAL and sync (it is read once and
/// deleted), and only its fingerprints are computed.
public enum SourceVerification {
    /// Adds the `against sources` and `accounting` sections to the store's own report.
    public static func verify(store: String, against request: MigrateRequest) throws(MigrateError) -> VerificationReport {
        // A store that cannot be read fails now, not after the sources were migrated again.
        do { _ = try CoreDataStoreReader(path: store) } catch { throw .store(source: store, reason: "\(error)") }
        let bundle: ModelBundle
        do { bundle = try XcodeModelLoader.loadBundle(at: request.modelPath) } catch { throw .model(error) }
        let actual = BackgroundWork<VerificationReport, VerificationError> {
            Result { () throws(VerificationError) in try StoreVerifier(path: store, model: .bundle(bundle)).verify() }
        }
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
        rerun.durable = false
        let summary = try MigrateJob(request: rerun).run()
        do {
            let expectedStore = try StoreVerifier(path: rerun.outputPath, model: .modelCache)
            let expected = try expectedStore.fingerprints()
            var report = try actual.wait()
            report.append(FingerprintComparison.section(named: "against sources", expected: expected.records, actual: report.fingerprints))
            report.append(FingerprintComparison.section(named: "pairs against sources", expected: expected.edges,
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
