@testable import Ferry
import FerryFormats
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryVerify
import FerryTestSupport
import Foundation
import Testing

@Suite("ferry restore: a store identical to the original, from a checked backup")
struct RestoreJobTests {
    @Test("export → restore gives back every record and edge with its Z_PK, in every format", arguments: ExportFormat.allCases)
    func roundTrip(format: ExportFormat) throws {
        let folder = try TestPaths.temporaryFolder("restore")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", format: format,
                                                 gzipLevel: format == .csv ? 1 : nil, modelPath: ExportTestSupport.workspace)).run()
        let restored = folder + "/Restored.sqlite"
        let summary = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: restored).run()
        #expect(summary.records == ["Tag": 9, "Task": 50, "Upload": 49])
        let original = try ExportTestSupport.contents(of: store, modelPath: ExportTestSupport.workspace)
        let copy = try ExportTestSupport.contents(of: restored, modelPath: ExportTestSupport.workspace)
        #expect(original == copy)
        #expect(try CoreDataStoreReader(path: restored).metadata.storeUUID == (try CoreDataStoreReader(path: store).metadata.storeUUID))
    }

    @Test("each root's Z_MAX of the backed-up store is kept above the restored keys, so deleted objects' keys are never reused")
    func keepsPrimaryKeyMaxima() throws {
        let folder = try TestPaths.temporaryFolder("restore-zmax")
        let store = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        // The store's newest tasks and tags were deleted: Z_MAX stays above the keys in use.
        try database.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 40 WHERE Z_NAME IN ('Task', 'Tag')")
        try database.close()
        let maxima = "SELECT Z_NAME || '=' || Z_MAX FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 ORDER BY Z_ENT"
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: restored).run()
        #expect(try storeRows(restored, maxima) == storeRows(store, maxima))
        #expect(try storeRows(restored, "SELECT Z_MAX > (SELECT max(Z_PK) FROM ZTASK) FROM Z_PRIMARYKEY WHERE Z_NAME = 'Task'") == ["1"])
    }

    @Test("the application's own metadata keys of the backed-up store are written back (they were dropped)")
    func keepsApplicationMetadata() throws {
        let folder = try TestPaths.temporaryFolder("restore-metadata")
        let store = try ExportTestSupport.workspace2Store(folder)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let read = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        #expect(try read.step())
        guard case .dictionary(var entries) = try PropertyList.decode(read.bytes(at: 0) ?? []) else { Issue.record("no metadata"); return }
        read.finalize()
        entries["AppSchemaRevision"] = .integer(7)
        entries["ACAccountTypeVersion"] = .array([.string("92"), .data([1, 2])])
        let update = try database.prepare("UPDATE Z_METADATA SET Z_PLIST = ?")
        try update.bindBlob(try BinaryPropertyListWriter().encode(.dictionary(entries)), at: 1)
        try update.run()
        update.finalize()
        try database.close()
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: restored).run()
        let metadata = try CoreDataStoreReader(path: restored).metadata
        // The app's keys, and Ferry's list of the files imported into the store, as the store held them.
        #expect(metadata.applicationEntries["AppSchemaRevision"] == .integer(7))
        #expect(metadata.applicationEntries["ACAccountTypeVersion"] == .array([.string("92"), .data([1, 2])]))
        #expect(metadata.applicationEntries == (try CoreDataStoreReader(path: store).metadata.applicationEntries))
        #expect(metadata.applicationEntries.keys.sorted() == ["ACAccountTypeVersion", "AppSchemaRevision", "FerryImportedFiles"])
        #expect(metadata.versionHashes == (try CoreDataStoreReader(path: store).metadata.versionHashes))
    }

    @Test("a manifest whose model block names another version than its files hold is refused before anything is written")
    func manifestModelMatchesFiles() throws {
        let folder = try TestPaths.temporaryFolder("restore-model-swap")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/w2", modelPath: ExportTestSupport.workspace)).run()
        let w1 = folder + "/W1.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [TestPaths.fixtures + "/legacy/uploads.csv"], modelPath: ExportTestSupport.workspace,
                                                 modelVersion: "Workspace 1", entity: "UploadEntity", outputPath: w1)).run()
        _ = try ExportJob(request: ExportRequest(storePath: w1, outputFolder: folder + "/w1", modelPath: ExportTestSupport.workspace)).run()
        // The Workspace 2 export's manifest given the Workspace 1 export's model block (file digests still match).
        func manifest(_ name: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/\(name)/manifest.json"))) as? [String: Any])
        }
        var swapped = try manifest("w2")
        swapped["model"] = try manifest("w1")["model"]
        try Self.writeManifest(JSONDecoder().decode(ExportManifest.self, from: JSONSerialization.data(withJSONObject: swapped)), in: folder + "/w2")
        let error = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/w2", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Restored.sqlite").run()
        }
        #expect(error.description.contains("which model Workspace 1 does not have") || error.description.contains("other than model Workspace 1"),
                "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Restored.sqlite"))
    }

    @Test("a backup made with the store's own model restores with the app's Xcode model, which declares fields in another order")
    func modelOrderDoesNotMatter() throws {
        // The store's model cache lists attributes and relationships by name; Xcode keeps them in
        // the order they were added. Restore compared the two lists in order and refused (exit 3).
        let folder = try TestPaths.temporaryFolder("restore-field-order")
        let bundle = try TestPaths.xcodeModelBundle("Notes", versions: [("Notes", """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Note" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                    <attribute name="body" optional="YES" attributeType="String"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                <entity name="Folder" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <entity name="Tag" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
                </entity>
            </model>
            """)], in: folder)
        let records = folder + "/notes.json"
        try Data(#"[{"title":"メモ","body":"b","folder":{"name":"Inbox"},"tags":[{"name":"a"},{"name":"b"}]}]"#.utf8)
            .write(to: URL(fileURLWithPath: records))
        let store = folder + "/Notes.sqlite"
        let imported = try FerryProcess.run(["import", records, "--model", bundle, "--entity", "Note", "--out", store])
        try #require(imported.status == 0, "\(imported.err)")
        for format in ["ndjson", "csv"] {
            let backup = try FerryProcess.run(["export", store, "--out", folder + "/" + format, "--format", format])
            try #require(backup.status == 0, "\(backup.err)")
            let restored = folder + "/Restored-\(format).sqlite"
            let result = try FerryProcess.run(["restore", folder + "/" + format, "--model", bundle, "--out", restored])
            #expect(result.status == 0, "\(format): \(result.err)")
            #expect(try storeRows(restored, "SELECT ZTITLE, ZBODY, ZFOLDER FROM ZNOTE") == ["メモ|b|1"])
            #expect(try storeRows(restored, "SELECT count(*) FROM Z_2TAGS") == ["2"])
        }
    }

    @Test("an export written with --sort is refused with what to do, before anything is read into a store")
    func sortedExportIsRefused() throws {
        let folder = try TestPaths.temporaryFolder("restore-sorted")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", entities: ["Upload"], sort: "fileName",
                                                 modelPath: ExportTestSupport.workspace)).run()
        let error = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Restored.sqlite").run()
        }
        #expect(!error.isVerificationFailure && !error.isDestinationFailure)
        #expect(error.description.contains("(--sort fileName); a restore needs its records in Z_PK order"), "\(error)")
    }

    @Test("to-one links the other side does not list back are counted (a partial export's, dangling keys), not dropped unseen")
    func unmatchedToOnesAreCounted() throws {
        let folder = try TestPaths.temporaryFolder("restore-unmatched")
        let store = try ExportTestSupport.workspace2Store(folder)
        let linked = try #require(Int(try storeRows(store, "SELECT count(*) FROM ZUPLOAD WHERE ZTASK IS NOT NULL").first ?? ""))
        #expect(linked > 0)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/part", entities: ["Upload"],
                                                 modelPath: ExportTestSupport.workspace)).run()
        let partial = try RestoreJob(folder: folder + "/part", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Part.sqlite").run()
        #expect(partial.unmatchedPairs == ["Upload.task": linked])
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/full", modelPath: ExportTestSupport.workspace)).run()
        let whole = try RestoreJob(folder: folder + "/full", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Whole.sqlite").run()
        #expect(whole.unmatchedPairs.isEmpty)
    }

    @Test("a whole backup of a store with a dangling key restores the rest (exit 1), its fingerprints compared but for the pairs not restored")
    func danglingKeyWithFingerprints() throws {
        let (folder, manifest) = try Self.exported("restore-dangling-fingerprints", into: "full",
            changedBy: "UPDATE ZUPLOAD SET ZTASK = 9999 WHERE Z_PK = (SELECT min(Z_PK) FROM ZUPLOAD WHERE ZTASK IS NOT NULL)")
        #expect(manifest.fingerprints != nil)
        let restored = try RestoreJob(folder: folder + "/full", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Whole.sqlite").run()
        #expect(restored.unmatchedPairs == ["Upload.task": 1] || LinkReport.unresolved(in: restored.links) == 1,
                "\(restored.unmatchedPairs) \(restored.links)")
        #expect(restored.records == ["Tag": 9, "Task": 50, "Upload": 49])
        #expect(restored.notCompared == nil)
    }

    /// One dangling key left its whole relationship, and its inverse, out of the comparison: a
    /// pair moved elsewhere in it, both sides edited and the hashes made to match, restored with
    /// exit 1 (hostile run). The manifest keeps the pairs between records only (revision 3), so
    /// the rest of the relationship is compared; a manifest of revision 2 still restores, less it.
    @Test("a dangling key no longer hides its relationship: a pair moved in an edited backup is seen (exit 5), one taken off one side too")
    func danglingKeyDoesNotHideItsRelationship() throws {
        let (folder, manifest) = try Self.exported("restore-dangling-moved", into: "full",
            changedBy: "UPDATE ZUPLOAD SET ZTASK = 9999 WHERE Z_PK = 1; UPDATE ZUPLOAD SET ZTASK = 11 WHERE Z_PK = 2; UPDATE ZUPLOAD SET ZTASK = 4 WHERE Z_PK = 10")
        #expect(manifest.fingerprintRevision == ExportManifest.fingerprintRevision)
        try FileManager.default.copyItem(atPath: folder + "/full", toPath: folder + "/one-side")
        // Upload 2 moved from task 11 to task 4, on both sides.
        var moved = manifest
        try Self.edit("Upload.ndjson", in: folder + "/full", manifest: &moved) { Self.replacing("\"task\":11}", with: "\"task\":4}", once: $0) }
        try Self.edit("Task.ndjson", in: folder + "/full", manifest: &moved) {
            Self.replacing("\"attachments\":[10]", with: "\"attachments\":[2,10]", once: Self.replacing("\"attachments\":[2]", with: "\"attachments\":[]", once: $0))
        }
        let target = folder + "/Restored.sqlite"
        try Self.expectDiffers(folder + "/full", on: "Upload.task", into: target)
        // Under a manifest of revision 2 the relationship is left out, as before: restored, the dangling key said (exit 1).
        var older = moved
        older.fingerprintRevision = ExportManifest.pairsAsHeldRevision
        try Self.writeManifest(older, in: folder + "/full")
        let legacy = try RestoreJob(folder: folder + "/full", modelPath: ExportTestSupport.workspace, outputPath: target).run()
        #expect(legacy.notCompared == nil && (legacy.unmatchedPairs == ["Upload.task": 1] || LinkReport.unresolved(in: legacy.links) == 1),
                "\(legacy.unmatchedPairs) \(legacy.links)")
        // Upload 2 taken off task 11's list only: the restore reads the pairs of an optional to-one
        // from the lists, so the pair is missing, and the store differs (it was exit 1).
        var oneSide = manifest
        try Self.edit("Task.ndjson", in: folder + "/one-side", manifest: &oneSide) {
            Self.replacing("\"attachments\":[2]", with: "\"attachments\":[]", once: $0)
        }
        try Self.expectDiffers(folder + "/one-side", on: "Upload.task", into: folder + "/OneSide.sqlite")
    }

    /// A destination claimed by two records of an edited backup switched the comparison of its
    /// whole relationship off: a pair moved beside it restored with exit 0 and no word (hostile
    /// run). No store's files claim a destination twice, so the relationship is compared.
    @Test("a destination claimed twice in an edited backup does not hide a pair moved beside it (exit 5); the claims are said")
    func conflictingClaimDoesNotHideItsRelationship() throws {
        let (folder, exported) = try Self.exported("restore-conflict", into: "out",
            changedBy: "UPDATE ZUPLOAD SET ZTASK = 11 WHERE Z_PK = 2; UPDATE ZUPLOAD SET ZTASK = 50 WHERE Z_PK = 12")
        var manifest = exported
        try FileManager.default.copyItem(atPath: folder + "/out", toPath: folder + "/claimed")
        var claimedManifest = manifest
        // Upload 2 moved from task 11 to task 3 on both sides, and task 50 also claims upload 1.
        try Self.edit("Upload.ndjson", in: folder + "/out", manifest: &manifest) { Self.setting("task", to: 3, ofRecord: 2, in: $0) }
        try Self.edit("Task.ndjson", in: folder + "/out", manifest: &manifest) { text in
            let moved = Self.setting("attachments", to: [], ofRecord: 11, in: Self.setting("attachments", to: [2], ofRecord: 3, in: text))
            return Self.setting("attachments", to: Self.list("attachments", ofRecord: 50, in: moved) + [1], ofRecord: 50, in: moved)
        }
        try Self.expectDiffers(folder + "/out", on: "Upload.task", into: folder + "/Restored.sqlite")
        // The claim alone, by a task read before the one that holds the upload: the last claim is
        // kept, the store restores as it was held, and the claim is said (exit 1).
        try Self.edit("Task.ndjson", in: folder + "/claimed", manifest: &claimedManifest) { text in
            Self.setting("attachments", to: Self.list("attachments", ofRecord: 11, in: text) + [12], ofRecord: 11, in: text)
        }
        let restored = try FerryProcess.run(["restore", folder + "/claimed", "--model", ExportTestSupport.workspace, "--out", folder + "/Claimed.sqlite"])
        #expect(restored.status == 1 && restored.err.contains("warning: Task.attachments: 1 destination claimed by several records of the backup"),
                "\(restored.err)")
        #expect(try storeRows(folder + "/Claimed.sqlite", "SELECT ZTASK FROM ZUPLOAD WHERE Z_PK = 12") == ["50"])
    }

    /// A record whose required to-one names no record in the backed-up store is removed when its
    /// link finds nothing: the restore's ledger did not count it, and the restore failed its own
    /// check (exit 5, hostile run). It is rejected and said (exit 1); the rest is compared.
    /// With a to-many inverse, restore linked the pair from the box's list, wrote the item without
    /// its owner and failed its own check (exit 5, review): a required to-one is linked from its
    /// own side.
    @Test("a record whose required to-one key dangles is rejected and said (exit 1), not a failed ledger (exit 5)", arguments: [false, true])
    func requiredDanglingKey(withInverse: Bool) throws {
        let folder = try TestPaths.temporaryFolder("restore-required-dangling")
        let items = withInverse ? #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>"# : ""
        let inverse = withInverse ? #" inverseName="items" inverseEntity="Box""# : ""
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Box" syncable="YES"><attribute name="tag" attributeType="String"/>\(items)</entity>
                <entity name="Item" syncable="YES">
                    <attribute name="label" attributeType="String"/>
                    <relationship name="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Box"\(inverse)/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Boxes", versions: [("Boxes", contents)], in: folder)
        try #"[{"tag": "b1"}, {"tag": "b2"}]"#.write(toFile: folder + "/boxes.json", atomically: true, encoding: .utf8)
        try #"[{"label": "i1", "owner": "b1"}, {"label": "i2", "owner": "b2"}, {"label": "i3", "owner": "b1"}]"#
            .write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        let store = folder + "/Boxes.sqlite"
        #expect(try FerryProcess.run(["import", folder + "/boxes.json", "--model", bundle, "--entity", "Box", "--out", store]).status == 0)
        #expect(try FerryProcess.run(["import", folder + "/items.json", "--model", bundle, "--entity", "Item", "--out", store, "--append",
                                      "--link", "owner=tag"]).status == 0)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("UPDATE ZITEM SET ZOWNER = 9999 WHERE Z_PK = 2")
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/out"])
        #expect(exported.status == 1 && exported.err.contains("dangling-foreign-key"), "\(exported.err)")
        let restored = try FerryProcess.run(["restore", folder + "/out", "--model", bundle, "--out", folder + "/Restored.sqlite"])
        #expect(restored.status == 1 && restored.err.contains("warning: Item.owner: 1 record not restored"), "\(restored.err)")
        #expect(try storeRows(folder + "/Restored.sqlite", "SELECT group_concat(ZLABEL) FROM ZITEM") == ["i1,i3"])
    }

    /// Fingerprints of a revision this Ferry does not know were passed over with a warning, and
    /// an edited value restored with exit 0 (hostile run).
    @Test("fingerprints of an unknown or future revision, or without their revision, are refused (exit 3)")
    func unknownRevisionRefused() throws {
        let folder = try TestPaths.temporaryFolder("restore-revision")
        let store = try ExportTestSupport.workspace2Store(folder)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        for (revision, fingerprints, reason) in [(4, manifest.fingerprints, "written by a newer ferry"), (0, manifest.fingerprints, "is no revision a manifest was written with"),
                                                 (1, manifest.fingerprints, "is no revision a manifest was written with"),
                                                 (nil, manifest.fingerprints, "without their fingerprintRevision"),
                                                 (ExportManifest.fingerprintRevision, nil, "keeps no fingerprints")] {
            var edited = manifest
            (edited.fingerprintRevision, edited.fingerprints) = (revision, fingerprints)
            try Self.writeManifest(edited, in: folder + "/out")
            let refused = try FerryProcess.run(["restore", folder + "/out", "--model", ExportTestSupport.workspace, "--out", folder + "/Restored.sqlite"])
            #expect(refused.status == 3 && refused.err.contains(reason), "\(revision.map(String.init) ?? "nil"): \(refused.err)")
            #expect(!FileManager.default.fileExists(atPath: folder + "/Restored.sqlite"))
        }
    }

    /// The manifest's revision 3 is the verifier's revision 2 of the records with pairs between
    /// records only: a new verifier revision must bump the manifest's too, or a restore would
    /// compare fingerprints computed two ways.
    @Test("the manifest's fingerprint revision is tied to the verifier's")
    func manifestRevisionFollowsVerifier() {
        #expect(StoreVerifier.fingerprintRevision == 2 && ExportManifest.fingerprintRevision == 3,
                "bump ExportManifest.fingerprintRevision with StoreVerifier.fingerprintRevision")
    }

    /// The manifest's pairs are those between records, each ranked among them: a dangling member
    /// in the middle of an ordered list is left out of the list's ranks, as the restored list
    /// (which cannot hold it) numbers the rest.
    @Test("a dangling member in the middle of an ordered list: the rest of the list is compared, ranked as the restored list numbers it")
    func danglingMemberOfOrderedList() throws {
        let folder = try TestPaths.temporaryFolder("restore-dangling-ordered")
        let bundle = try TestPaths.xcodeModelBundle("Shelves", versions: [("Shelves", ShelvesStore.contents(version: 1, booksOrdered: false))], in: folder)
        let store = try ShelvesStore.make(in: folder, bundle: bundle, version: "Shelves",
                                          shelves: #"[{"name": "x", "books": ["c", "a", "b"]}, {"name": "y", "books": ["b", "c"]}]"#)
        let shelfX = "(SELECT Z_PK FROM ZSHELF WHERE ZNAME = 'x')"
        try SQLiteDatabase(path: store, mode: .readWrite).execute("""
            UPDATE Z_1SHELVES SET Z_FOK_1BOOKS = Z_FOK_1BOOKS * 10 WHERE Z_2SHELVES = \(shelfX);
            INSERT INTO Z_1SHELVES (Z_1BOOKS, Z_2SHELVES, Z_FOK_1BOOKS) SELECT 99, \(shelfX), Z_FOK_1BOOKS + 5 FROM Z_1SHELVES \
            WHERE Z_2SHELVES = \(shelfX) AND Z_1BOOKS = (SELECT Z_PK FROM ZBOOK WHERE ZTITLE = 'c')
            """)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: bundle)).run()
        #expect(manifest.fingerprintRevision == ExportManifest.fingerprintRevision)
        let restored = try RestoreJob(folder: folder + "/out", modelPath: bundle, outputPath: folder + "/Restored.sqlite").run()
        #expect(restored.notCompared == nil)
        #expect(restored.unmatchedPairs.values.reduce(0, +) + LinkReport.unresolved(in: restored.links) == 1, "\(restored)")
        let order = """
            SELECT group_concat(b.ZTITLE, ',') FROM (SELECT * FROM Z_1SHELVES ORDER BY Z_FOK_1BOOKS) j \
            JOIN ZBOOK b ON b.Z_PK = j.Z_1BOOKS WHERE j.Z_2SHELVES = \(shelfX)
            """
        #expect(try storeRows(folder + "/Restored.sqlite", order) == ["c,a,b"])
    }

    @Test("the pairs of a many-to-many side that restore does not read are counted too, when the other side is left out (they were dropped, exit 0)")
    func unmatchedManyToManyPairsAreCounted() throws {
        let folder = try TestPaths.temporaryFolder("restore-unmatched-many")
        let store = try ExportTestSupport.workspace2Store(folder)
        let pairs = try #require(Int(try storeRows(store, "SELECT count(*) FROM Z_1TASKS").first ?? ""))
        #expect(pairs > 0)
        for (entity, side) in [("Tag", "Tag.tasks"), ("Task", "Task.tags")] {
            _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/\(entity)", entities: [entity],
                                                     modelPath: ExportTestSupport.workspace)).run()
            let partial = try RestoreJob(folder: folder + "/\(entity)", modelPath: ExportTestSupport.workspace,
                                         outputPath: folder + "/\(entity).sqlite").run()
            // Whichever side restore reads, the pairs it could not restore are said: counted, or unresolved.
            #expect(partial.unmatchedPairs[side] == pairs || LinkReport.unresolved(in: partial.links) == pairs,
                    "\(entity): \(partial.unmatchedPairs) \(partial.links)")
        }
    }

    @Test("a value no store keeps as it is (an integer past 2^53 in a Decimal) is refused by the export that reads it, naming table, row and column: no backup holds it")
    func unkeepableValueIsNamed() throws {
        let folder = try TestPaths.temporaryFolder("restore-decimal")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Item" syncable="YES">
                    <attribute name="amount" optional="YES" attributeType="Decimal"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Items", versions: [("Items", contents)], in: folder)
        try "amount\n3.5\n12\n".write(toFile: folder + "/items.csv", atomically: true, encoding: .utf8)
        let store = folder + "/items.sqlite"
        _ = try ImportJob(request: ImportRequest(sources: [folder + "/items.csv"], modelPath: bundle, entity: "Item", outputPath: store)).run()
        // An integer no real holds exactly, written into the store by hand (Core Data writes reals).
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZITEM SET ZAMOUNT = 9223372036854775807 WHERE Z_PK = 2")
        try database.close()
        let error = try #require(throws: ExportError.self) {
            try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: bundle)).run()
        }
        #expect(error.description.contains("table ZITEM, row 2, column ZAMOUNT: Item Z_PK 2, attribute amount: integer 9223372036854775807 has no exact double"),
                "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    @Test("restore goes through the backup check, reading, link resolution and verification (before the rename), and reports each")
    func phases() throws {
        let folder = try TestPaths.temporaryFolder("restore-phases")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        var phases: [String] = []
        var totals: [Int?] = []
        _ = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Restored.sqlite")
            .run { progress in
                if phases.last != progress.phase {
                    phases.append(progress.phase)
                    totals.append(progress.total)
                }
            }
        #expect(phases == ["checking the backup", "reading \(folder)/out", "resolving links", "verifying"])
        #expect(totals.dropFirst().first == 108)
    }

    // Corpus stores (real Core Data stores, some with WAL data, sub-entities and ordered
    // relationships); skipped when ../shared/corpus is absent.
    // CSV takes the path that copies plain values straight from SQLite's buffers; NDJSON the
    // one through attribute values.
    @Test("corpus stores: export → restore → identical records and edges", .enabled(if: TestPaths.corpusAvailable),
          arguments: ExportTestSupport.corpusStores.map(\.store), [ExportFormat.ndjson, .csv])
    func corpusRoundTrip(store: String, format: ExportFormat) throws {
        let model = try #require(ExportTestSupport.corpusStores.first { $0.store == store }?.model)
        let folder = try TestPaths.temporaryFolder("restore-corpus")
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", format: format, gzipLevel: 6,
                                                 modelPath: model)).run()
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: folder + "/out", modelPath: model, outputPath: restored).run()
        #expect(try ExportTestSupport.contents(of: store, modelPath: model) == ExportTestSupport.contents(of: restored, modelPath: model))
    }

    @Test("a one-to-one that Apple Notes fills on one side only comes back with every pair",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func oneSidedOneToOne() throws {
        let (folder, store, model) = try OneSidedOneToOneTests.appleNotesCopy("restore-notes")
        _ = try BackupJob(storePath: store, folder: folder + "/backups").run()
        let backup = try #require(try FileManager.default.contentsOfDirectory(atPath: folder + "/backups").first { !$0.hasPrefix(".") })
        let restored = folder + "/Restored.sqlite"
        _ = try RestoreJob(folder: folder + "/backups/" + backup, modelPath: model, outputPath: restored).run()
        let before = try StoreVerifier(path: store).fingerprints()
        let after = try StoreVerifier(path: restored).fingerprints()
        let cloudState = try #require(before.edges.first { $0.subject == "ICCloudSyncingObject.cloudState" })
        #expect(cloudState.fingerprint.count == 28, "the corpus store's one-sided pairs")
        #expect(after.edges == before.edges)
        #expect(after.records == before.records)
    }

    @Test("a missing or altered file is named, and nothing is written")
    func damagedBackup() throws {
        let folder = try TestPaths.temporaryFolder("restore-bad")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        let target = folder + "/Restored.sqlite"
        var bytes = try TestPaths.read(folder + "/out/Task.ndjson")
        bytes[10] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: folder + "/out/Task.ndjson"))
        let altered = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: target).run()
        }
        #expect(altered.isVerificationFailure && altered.description.contains("Task.ndjson") && altered.description.contains("altered"))
        try FileManager.default.removeItem(atPath: folder + "/out/Task.ndjson")
        let missing = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: target).run()
        }
        #expect(missing.description.contains("Task.ndjson") && missing.description.contains("missing"))
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("a backup edited with its hashes made to match restores nothing: the new store's fingerprints differ from the store's")
    func consistentlyEditedBackup() throws {
        let folder = try TestPaths.temporaryFolder("restore-edited")
        let store = try ExportTestSupport.workspace2Store(folder)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        #expect(manifest.fingerprints?.count == 3 + 2 && manifest.fingerprintRevision == ExportManifest.fingerprintRevision)
        // A title changed in the file, and the file's size and SHA-256 in the manifest with it:
        // every check of the backup itself passes, and the records restore one for one.
        var rewritten = manifest
        try Self.edit("Task.ndjson", in: folder + "/out", manifest: &rewritten) {
            $0.replacingOccurrences(of: "\"title\":\"", with: "\"title\":\"~")
        }
        let target = folder + "/Restored.sqlite"
        try Self.expectDiffers(folder + "/out", on: "Task: the values differ", into: target)
        // A file the manifest does not list (Tag's, its entry taken out) leaves Tag's records and
        // pairs out of the comparison, not the edited Task's (it turned the whole comparison off: exit 1).
        var strayed = rewritten
        strayed.entities.removeAll { $0.entity == "Tag" }
        try Self.writeManifest(strayed, in: folder + "/out")
        let stray = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: target).run()
        }
        #expect(stray.isVerificationFailure && stray.description.contains("Task: the values differ"), "\(stray)")
        #expect(!FileManager.default.fileExists(atPath: target))
        // The fingerprints emptied, or the edited entity's taken out: the new store's Task is
        // fingerprinted and the manifest keeps nothing to compare it with (it restored, exit 0).
        for kept in [[], manifest.fingerprints?.filter { $0.subject != "Task" } ?? []] {
            rewritten.fingerprints = kept
            try Self.writeManifest(rewritten, in: folder + "/out")
            let cut = try #require(throws: ExportError.self) {
                try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: target).run()
            }
            #expect(cut.isVerificationFailure && cut.description.contains(kept.isEmpty ? ": the manifest keeps no fingerprint of it"
                                                                                      : "Task: the manifest keeps no fingerprint of it"), "\(cut)")
            #expect(!FileManager.default.fileExists(atPath: target))
        }
        // A manifest of an older version, without fingerprints, restores as before.
        rewritten.fingerprints = nil
        rewritten.fingerprintRevision = nil
        try Self.writeManifest(rewritten, in: folder + "/out")
        let unchecked = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: target).run()
        #expect(unchecked.notCompared?.contains("carries no fingerprints of its store") == true, "\(unchecked.notCompared ?? "compared")")
        // An export that could not keep them says why in its manifest, and the restore repeats it.
        rewritten.fingerprintsNotKept = ExportManifest.writtenWhileExported
        try Self.writeManifest(rewritten, in: folder + "/out")
        let told = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Told.sqlite").run()
        #expect(told.notCompared?.contains("no fingerprints of its store (the store was written while it was exported)") == true,
                "\(told.notCompared ?? "compared")")
    }

    /// A key no export writes, added to a record with the file's hash made to match, was dropped
    /// by restore without a word, exit 0 (hostile run).
    @Test("a record holding a key no export writes is refused, naming the record and the key")
    func unknownKeyInRecord() throws {
        let folder = try TestPaths.temporaryFolder("restore-unknown-key")
        let store = try ExportTestSupport.workspace2Store(folder)
        var manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        try Self.edit("Task.ndjson", in: folder + "/out", manifest: &manifest) { text in
            let edited = text.replacingOccurrences(of: "{\"Z_PK\":1,", with: "{\"Z_PK\":1,\"bogus\":\"precious data\",")
            #expect(edited != text)
            return edited
        }
        let failure = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Restored.sqlite").run()
        }
        #expect(failure.isVerificationFailure && failure.description.contains("record 1 (Z_PK 1) holds \"bogus\", which an export of Task does not write"),
                "\(failure)")
    }

    /// Pairs were fingerprinted with each end named by its uniqueness constraint: boxes whose
    /// optional unique name is NULL were named alike, and a thing moved from one to the other in
    /// a backup restored with exit 0 (hostile run). A restore keeps every `Z_PK`, so the
    /// manifest's pairs are named by `Z_PK`.
    @Test("pairs are compared by Z_PK: a thing moved between two boxes whose unique name is NULL is seen")
    func pairsByPrimaryKey() throws {
        let folder = try TestPaths.temporaryFolder("restore-null-unique")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Box" syncable="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thing" inverseName="box" inverseEntity="Thing"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
                <entity name="Thing" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="box" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Box" inverseName="things" inverseEntity="Box"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Boxes", versions: [("Boxes", contents)], in: folder)
        try #"[{"name": "a"}, {"name": "b"}]"#.write(toFile: folder + "/boxes.json", atomically: true, encoding: .utf8)
        try #"[{"title": "one"}, {"title": "two"}]"#.write(toFile: folder + "/things.json", atomically: true, encoding: .utf8)
        let store = folder + "/Boxes.sqlite"
        #expect(try FerryProcess.run(["import", folder + "/boxes.json", "--model", bundle, "--entity", "Box", "--out", store]).status == 0)
        #expect(try FerryProcess.run(["import", folder + "/things.json", "--model", bundle, "--entity", "Thing", "--out", store, "--append"]).status == 0)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("UPDATE ZBOX SET ZNAME = NULL; UPDATE ZTHING SET ZBOX = Z_PK")
        let moved = folder + "/Moved.sqlite"
        try FileManager.default.copyItem(atPath: store, toPath: moved)
        try SQLiteDatabase(path: moved, mode: .readWrite).execute("UPDATE ZTHING SET ZBOX = 3 - Z_PK")
        let byName = try [store, moved].map { try StoreVerifier(path: $0, model: .modelCache).fingerprints().edges }
        #expect(byName[0] == byName[1], "named by their constraint, the two boxes are alike")
        let byKey = try [store, moved].map { try StoreVerifier(path: $0, model: .modelCache).fingerprints(pairKeying: .primaryKeys).edges }
        #expect(byKey[0] != byKey[1])
        // The manifest keeps the pairs by Z_PK: a restore of the moved store's files, under the
        // first store's manifest, is refused.
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: bundle)).run()
        let movedManifest = try ExportJob(request: ExportRequest(storePath: moved, outputFolder: folder + "/moved", modelPath: bundle)).run()
        #expect(manifest.fingerprints?.first { $0.subject == "Thing.box" }?.attributes == ["Z_PK", "Z_PK"])
        var swapped = movedManifest
        swapped.fingerprints = manifest.fingerprints
        try Self.writeManifest(swapped, in: folder + "/moved")
        let failure = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/moved", modelPath: bundle, outputPath: folder + "/Restored.sqlite").run()
        }
        #expect(failure.description.contains("Thing.box: the values differ"), "\(failure)")
    }

    @Test("export --no-fingerprints writes none, and its restore says it was checked by counts only; a whole export's restore says it was compared")
    func exportWithoutFingerprints() throws {
        let folder = try TestPaths.temporaryFolder("restore-no-fingerprints")
        let store = try ExportTestSupport.workspace2Store(folder)
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/out", "--no-fingerprints"])
        #expect(exported.status == 0, "\(exported.err)")
        #expect(try !String(decoding: TestPaths.read(folder + "/out/manifest.json"), as: UTF8.self).contains("\"fingerprints\""))
        let restored = try FerryProcess.run(["restore", folder + "/out", "--model", ExportTestSupport.workspace, "--out", folder + "/Restored.sqlite"])
        #expect(restored.status == 0 && restored.err.contains("warning: the backup carries no fingerprints of its store (exported with --no-fingerprints"),
                "\(restored.err)")
        #expect(restored.out.hasSuffix("→ \(folder)/Restored.sqlite: verified by its counts\n"), "\(restored.out)")
        let whole = try FerryProcess.run(["export", store, "--out", folder + "/whole"])
        #expect(whole.status == 0, "\(whole.err)")
        let compared = try FerryProcess.run(["restore", folder + "/whole", "--model", ExportTestSupport.workspace, "--out", folder + "/Compared.sqlite"])
        #expect(compared.status == 0 && compared.out.hasSuffix(
            "→ \(folder)/Compared.sqlite: verified, and compared with the store backed up record by record and pair by pair\n"), "\(compared.out)")
    }

    /// A join row of a reflexive many-to-many (its own inverse) whose first key names no record
    /// is in no record's list: the export dropped it without a word, and the restore then found
    /// the store's pairs one short (exit 5, nothing written). The export names it in its manifest,
    /// and the restore says it is not restored (exit 1).
    @Test("a dangling join row of a reflexive many-to-many is named by export and restore (exit 1), not dropped unseen")
    func reflexiveDanglingPair() throws {
        let folder = try TestPaths.temporaryFolder("restore-reflexive")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Person" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("People", versions: [("People", contents)], in: folder)
        try #"[{"name": "ann"}, {"name": "bo"}]"#.write(toFile: folder + "/people.json", atomically: true, encoding: .utf8)
        let store = folder + "/People.sqlite"
        #expect(try FerryProcess.run(["import", folder + "/people.json", "--model", bundle, "--entity", "Person", "--out", store]).status == 0)
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let join = try #require(try database.scalarText("SELECT name FROM sqlite_master WHERE name LIKE 'Z\\_%FRIENDS' ESCAPE '\\'"))
        try database.execute("INSERT INTO \"\(join)\" VALUES (1, 2), (99, 1)")
        try database.close()
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/out"])
        #expect(exported.status == 1 && exported.err.contains("warning: Person.friends: 1 pair of \(store) with no record to list it")
                && exported.err.contains("dangling-join-row"), "\(exported.err)")
        let restored = try FerryProcess.run(["restore", folder + "/out", "--model", bundle, "--out", folder + "/Restored.sqlite"])
        #expect(restored.status == 1, "\(restored.err)")
        #expect(restored.err.contains("warning: Person.friends: 1 pair of the backed-up store with no record to list it"), "\(restored.err)")
        #expect(try storeRows(folder + "/Restored.sqlite", "SELECT count(*) FROM \"\(join)\"") == ["1"])
    }

    @Test("a join row whose two keys both name no record is named by export and restore (exit 1)")
    func joinRowDanglingAtBothEnds() throws {
        let folder = try TestPaths.temporaryFolder("restore-join-both-ends")
        let store = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute("INSERT INTO Z_1TASKS VALUES (9998, 9999)")
        let exported = try FerryProcess.run(["export", store, "--out", folder + "/out"])
        #expect(exported.status == 1 && exported.err.contains(": 1 pair of \(store) with no record to list it")
                && exported.err.contains("dangling-join-row"), "\(exported.err)")
        let restored = try FerryProcess.run(["restore", folder + "/out", "--model", ExportTestSupport.workspace, "--out", folder + "/Restored.sqlite"])
        #expect(restored.status == 1 && restored.err.contains("1 pair of the backed-up store with no record to list it"), "\(restored.err)")
    }

    @Test("a selection's manifest carries no fingerprints: no store would match them")
    func selectionWithoutFingerprints() throws {
        let folder = try TestPaths.temporaryFolder("restore-selection-fingerprints")
        let store = try ExportTestSupport.workspace2Store(folder)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", entities: ["Task"],
                                                            modelPath: ExportTestSupport.workspace)).run()
        #expect(manifest.fingerprints == nil && manifest.fingerprintRevision == nil)
        let restored = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: folder + "/Tasks.sqlite").run()
        #expect(restored.notCompared == nil)
    }

    @Test("an existing store is refused and left as it was; --force replaces it")
    func existingStore() throws {
        let folder = try TestPaths.temporaryFolder("restore-existing")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", modelPath: ExportTestSupport.workspace)).run()
        let target = folder + "/Existing.sqlite"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let error = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: target).run()
        }
        #expect(error.isDestinationFailure && error.description.contains("--force"))
        #expect(try TestPaths.read(target) == Array("keep me".utf8))
        _ = try RestoreJob(folder: folder + "/out", modelPath: ExportTestSupport.workspace, outputPath: target, replaceExisting: true).run()
        #expect(try CoreDataStoreReader(path: target).count(for: "Task") == 50)
    }
}

extension RestoreJobTests {
    /// A Workspace 2 store in a new temporary folder called `name`, changed by `sql`, exported
    /// whole into the folder's `subfolder`: the folder and the export's manifest.
    static func exported(_ name: String, into subfolder: String, changedBy sql: String) throws -> (folder: String, manifest: ExportManifest) {
        let folder = try TestPaths.temporaryFolder(name)
        let store = try ExportTestSupport.workspace2Store(folder)
        try SQLiteDatabase(path: store, mode: .readWrite).execute(sql)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/" + subfolder,
                                                            modelPath: ExportTestSupport.workspace)).run()
        return (folder, manifest)
    }

    /// Restores `folder` into `target` and expects the comparison with the store backed up to
    /// fail, naming `subject`, with nothing written.
    static func expectDiffers(_ folder: String, on subject: String, into target: String) throws {
        let failure = try #require(throws: ExportError.self) {
            try RestoreJob(folder: folder, modelPath: ExportTestSupport.workspace, outputPath: target).run()
        }
        #expect(failure.isVerificationFailure && failure.description.contains("differs from the store backed up")
                && failure.description.contains(subject), "\(failure)")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    /// The NDJSON `text` with `key` of the record whose `Z_PK` is `primaryKey` set to `value`.
    static func setting(_ key: String, to value: Any, ofRecord primaryKey: Int, in text: String) -> String {
        var found = 0
        let lines = text.split(separator: "\n").map { line -> String in
            guard var record = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  record["Z_PK"] as? Int == primaryKey else { return String(line) }
            found += 1
            record[key] = value
            return String(decoding: (try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        }
        #expect(found == 1, "no record \(primaryKey)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The list `key` of the record whose `Z_PK` is `primaryKey` in the NDJSON `text`.
    static func list(_ key: String, ofRecord primaryKey: Int, in text: String) -> [Int] {
        for line in text.split(separator: "\n") {
            guard let record = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                  record["Z_PK"] as? Int == primaryKey else { continue }
            return record[key] as? [Int] ?? []
        }
        return []
    }

    /// `text` with the one occurrence of `old` replaced (a test edit that must find its place).
    static func replacing(_ old: String, with new: String, once text: String) -> String {
        #expect(text.components(separatedBy: old).count == 2, "\(old) is not in the file once")
        return text.replacingOccurrences(of: old, with: new)
    }

    /// Writes `manifest` over the folder's manifest.json as an export does, with the digest of its
    /// content: an edit whose digest was made to match, so that what a restore meets is the edit.
    static func writeManifest(_ manifest: ExportManifest, in folder: String) throws {
        let path = folder + "/" + ExportManifest.fileName
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try ManifestFile.write(manifest, to: path, durable: false)
    }

    /// Edits an export file with `change`, and the file's size and SHA-256 in `manifest` with it,
    /// then writes the manifest: every check of the backup itself still passes.
    static func edit(_ name: String, in folder: String, manifest: inout ExportManifest, _ change: (String) -> String) throws {
        let file = folder + "/" + name
        let edited = Data(change(String(decoding: try TestPaths.read(file), as: UTF8.self)).utf8)
        try edited.write(to: URL(fileURLWithPath: file))
        let index = try #require(manifest.entities.firstIndex { $0.file == name })
        manifest.entities[index].bytes = edited.count
        var hash = SHA256()
        hash.update([UInt8](edited))
        manifest.entities[index].sha256 = hash.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        try Self.writeManifest(manifest, in: folder)
    }
}
