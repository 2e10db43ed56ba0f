@testable import Ferry
import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// The restore's own checks counted records and pairs; the store's identity (its UUID, each
/// root's Z_MAX, the application's metadata keys) was written as the manifest said and read back
/// by nothing. The identity check reads it back from the built store.
@Suite("restore: the built store keeps the backed-up store's identity")
struct RestoreIdentityCheckTests {
    @Test("a store that keeps it passes; another UUID, a lower Z_MAX and a missing metadata key are each named")
    func identity() throws {
        let folder = try TestPaths.temporaryFolder("restore-identity")
        let store = try ExportTestSupport.workspace2Store(folder)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: restored).run()
        let model = try RestoreModel.version(in: ExportTestSupport.workspace, hashes: manifest.model.versionHashes,
                                             recordedVersion: manifest.model.versionName)
        try RestoreIdentityCheck.check(restored, manifest: manifest, model: model, outputPath: restored)
        var other = manifest
        other.storeUUID = StoreUUID()
        other.state.primaryKeyMaxima["Task"] = (manifest.state.primaryKeyMaxima["Task"] ?? 0) + 100
        other.applicationMetadata = try ExportManifest.applicationMetadata(of: ["AppSchemaRevision": .integer(7)])
        let failure = try #require(throws: ExportError.self) {
            try RestoreIdentityCheck.check(restored, manifest: other, model: model, outputPath: restored)
        }
        let text = failure.description
        #expect(failure.isVerificationFailure && text.contains("its UUID is") && text.contains("Z_MAX of Task is")
                && text.contains("metadata key AppSchemaRevision is missing"), "\(text)")
    }
}
