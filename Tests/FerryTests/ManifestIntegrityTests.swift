@testable import Ferry
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// The files of a backup were checked against the digests in its manifest, and nothing checked
/// the manifest itself: one character changed in it (a digit of the store UUID, a letter of the
/// application metadata, a key misspelled, an entity's name under `primaryKeyMaxima`) restored
/// another store with exit 0, "verified" (hostile run). The manifest carries a digest of its own
/// content and is read strictly.
@Suite("a backup's manifest is checked itself: its digest, its keys, the names of its Z_MAX values")
struct ManifestIntegrityTests {
    /// A whole export of the Workspace 2 store, whose newest uploads were deleted (Z_MAX above the
    /// keys in use) and whose metadata holds the app's keys; returns the folder and the manifest's text.
    private func exported(_ label: String) throws -> (folder: String, text: String) {
        let folder = try TestPaths.temporaryFolder(label)
        let store = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1000 WHERE Z_NAME = 'Upload'")
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        #expect(manifest.manifestSHA256 != nil && manifest.applicationMetadata != nil && manifest.formatVersion == ExportManifest.currentFormatVersion)
        return (folder, String(decoding: try TestPaths.read(folder + "/out/" + ExportManifest.fileName), as: UTF8.self))
    }

    /// Restores `folder/out` with `text` as its manifest, with the built `ferry`.
    private func restore(_ folder: String, manifest text: String) throws -> FerryProcess.Result {
        try text.write(toFile: folder + "/out/" + ExportManifest.fileName, atomically: true, encoding: .utf8)
        try? FileManager.default.removeItem(atPath: folder + "/Restored.sqlite")
        return try FerryProcess.run(["restore", folder + "/out", "--model", ExportTestSupport.workspace, "--out", folder + "/Restored.sqlite"])
    }

    /// `text` with the first letter or digit at least `offset` characters after `markers` (found
    /// one after the other) changed to another of its kind: a digit one up, a letter to the next.
    private func oneCharacterChanged(_ text: String, after markers: [String], offset: Int = 0) throws -> String {
        var characters = Array(text)
        var index = 0
        for marker in markers {
            let range = try #require(String(characters[index...]).range(of: marker))
            index += String(characters[index...])[..<range.upperBound].count
        }
        index += offset
        while !(characters[index].isLetter || characters[index].isNumber) { index += 1 }
        let changed: Character = switch characters[index] {
        case "9": "0"
        case "z", "Z": "a"
        case let other: Character(Unicode.Scalar(other.unicodeScalars.first!.value + 1)!)
        }
        characters[index] = changed
        return String(characters)
    }

    @Test("one character changed in the store UUID, the application metadata or a Z_MAX is refused as altered (exit 5), naming the manifest; nothing is written")
    func oneCharacterChangedIsAltered() throws {
        let (folder, text) = try exported("manifest-one-character")
        for markers in [["\"storeUUID\""], ["\"applicationMetadata\""], ["\"primaryKeyMaxima\"", "\"Upload\""], ["\"entities\"", "\"count\""]] {
            let changed = try oneCharacterChanged(text, after: markers, offset: markers == ["\"applicationMetadata\""] ? 20 : 0)
            #expect(changed != text)
            let restored = try restore(folder, manifest: changed)
            #expect(restored.status == 5 && restored.err.contains(folder + "/out/manifest.json: altered: the SHA-256 of its content is"),
                    "\(markers): \(restored.err)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/Restored.sqlite"))
        }
        // Layout and member order are not content: the manifest written again another way restores.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let relaid = String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.withoutEscapingSlashes]), as: UTF8.self)
        #expect(relaid != text)
        let restored = try restore(folder, manifest: relaid)
        #expect(restored.status == 0 && restored.out.contains("compared with the store backed up"), "\(restored.err)")
        #expect(try storeRows(folder + "/Restored.sqlite", "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Upload'") == ["1049"])
    }

    @Test("a key no manifest has, a key given twice or a null is refused as not valid (exit 3), naming it")
    func unknownKeysRefused() throws {
        let (folder, text) = try exported("manifest-unknown-key")
        let edits = [("\"applicationMetadata\"", "\"applicationMetadatA\"", "applicationMetadatA is no key of a manifest"),
                     ("\"fileStamp\"", "\"fileStamP\"", "state.fileStamP is no key of a manifest"),
                     ("\"storeUUID\"", "\"storeUUID\" : \"00000000-0000-0000-0000-000000000000\", \"storeUUID\"", "the key storeUUID appears twice"),
                     ("\"storeUUID\"", "\"predicate\" : null, \"storeUUID\"", "the value of predicate is null, which no manifest holds")]
        for (old, new, reason) in edits {
            let restored = try restore(folder, manifest: RestoreJobTests.replacing(old, with: new, once: text))
            #expect(restored.status == 3 && restored.err.contains("manifest.json: the manifest is not valid: " + reason), "\(restored.err)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/Restored.sqlite"))
        }
    }

    @Test("a manifest of an earlier ferry, without a digest, restores with a warning that it could not be checked; one of this format without it is altered")
    func earlierManifests() throws {
        let (folder, text) = try exported("manifest-earlier")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        BackupJobTests.writtenByOlderFerry(&object)
        let older = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let restored = try restore(folder, manifest: older)
        #expect(restored.status == 0 && restored.err.contains("warning: manifest.json carries no digest of its own (format 1, written by ferry ")
                && restored.err.contains("the manifest itself could not be checked"), "\(restored.err)")
        // Unchecked, it is still read strictly: a misspelled key, a Z_MAX of no entity.
        let misspelled = try restore(folder, manifest: RestoreJobTests.replacing("\"applicationMetadata\"", with: "\"applicationMetadatA\"", once: older))
        #expect(misspelled.status == 3 && misspelled.err.contains("applicationMetadatA is no key of a manifest"), "\(misspelled.err)")
        let renamed = try restore(folder, manifest: RestoreJobTests.replacing("\"Upload\":1049", with: "\"Uploae\":1049", once: older))
        #expect(renamed.status == 3 && renamed.err.contains("state.primaryKeyMaxima names Uploae, which is no entity of model Workspace 2"),
                "\(renamed.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Restored.sqlite"))
        // Of this format, without its digest: taken off, not written by an earlier ferry.
        object["formatVersion"] = ExportManifest.currentFormatVersion
        let stripped = try restore(folder, manifest: String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
        #expect(stripped.status == 5 && stripped.err.contains("altered: it carries no manifestSHA256"), "\(stripped.err)")
    }

    @Test("Z_MAX values are kept by the names of the model's entities and Core Data's own; any other name is one no restore can keep")
    func foreignMaximaNames() throws {
        let model = try #require(try XcodeModelLoader.loadBundle(at: ExportTestSupport.workspace).versions.first { $0.name == "Workspace 2" })
        let maxima: [String: Int64] = ["Upload": 1049, "UploadEntity": 3, "Task": 9, "TRANSACTION": 84, "NSCKEvent": 2, "Uploae": 1049, "": 1]
        #expect(RestoreModel.foreignNames(in: maxima, model: model) == ["", "Uploae"])
    }
}
