import FerryFormats
import FerryModel
import FerryTestSupport
import Foundation
import Testing

extension CommandLineTests {
    @Test("model extract: a SwiftData store's model as a bundle, what it wrote printed; --help has an example",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func modelExtract() throws {
        let folder = try TestPaths.temporaryFolder("model-cli")
        let output = folder + "/CartKit.xcdatamodeld"
        let run = try ferry("model", "extract", ModelExtractJobTests.swiftDataStore, "--out", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("wrote \(output): version CartKit (current)"))
        #expect(run.out.contains("entities (3): CartItemModel, CartItemModifierModel, CartModel"))
        #expect(run.out.contains("version hashes: all 3 equal the store's NSStoreModelVersionHashes"))
        #expect(run.out.contains("not expressible in Xcode's XML: nothing"))
        #expect(try XcodeModelLoader.loadBundle(at: output).current?.entities.count == 3)

        let again = try ferry("model", "extract", ModelExtractJobTests.swiftDataStore, "--out", output)
        #expect(again.status == 4 && again.err.contains("exists (use --force to replace it)"))
        #expect(try ferry("model", "extract", ModelExtractJobTests.swiftDataStore, "--out", output, "--force").status == 0)

        let help = try ferry("model", "--help")
        #expect(help.status == 0 && help.out.contains("examples:\n  ferry model extract ") && help.out.contains("  ferry model infer ")
                    && help.out.contains("--force"))
        #expect(try ferry("--help").out.contains("model "))
    }

    @Test("model extract: usage errors 2, unreadable input and stores without a model cache 3")
    func modelExtractRefusals() throws {
        let folder = try TestPaths.temporaryFolder("model-cli")
        #expect(try ferry("model").status == 2)
        #expect(try ferry("model", "fetch", "x.sqlite", "--out", folder + "/M.xcdatamodeld").status == 2)
        #expect(try ferry("model", "extract", "--out", folder + "/M.xcdatamodeld").status == 2)
        #expect(try ferry("model", "extract", "x.sqlite").err.contains("--out is required"))
        let wrongOut = try ferry("model", "extract", "x.sqlite", "--out", folder + "/M.momd")
        #expect(wrongOut.status == 2 && wrongOut.err.contains("must name an .xcdatamodeld bundle"))
        #expect(try ferry("model", "extract", folder + "/missing.sqlite", "--out", folder + "/M.xcdatamodeld").status == 3)
        guard TestPaths.corpusAvailable else { return }
        let emptied = try ferry("model", "extract", CorpusStores.path("log2timeline__plaso/test_data/macos/NotesV7.storedata"),
                                "--out", folder + "/M.xcdatamodeld")
        #expect(emptied.status == 3 && emptied.err.contains("holds no model"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
    }

    /// Extracts `store`'s model as `<name>.xcdatamodeld`, adds `<name> 2` as a developer makes it in
    /// Xcode (a copy of the first version with an optional `note` before `anchor`, made current),
    /// and migrates the store to it. Returns both runs and the folder holding bundle and new store.
    private func extractAndMigrate(_ store: String, name: String, anchor: String) throws -> (extract: Run, migrate: Run, folder: String) {
        let folder = try TestPaths.temporaryFolder("model-cli")
        let bundle = "\(folder)/\(name).xcdatamodeld"
        let extracted = try ferry("model", "extract", store, "--out", bundle)
        try FileManager.default.copyItem(atPath: "\(bundle)/\(name).xcdatamodel", toPath: "\(bundle)/\(name) 2.xcdatamodel")
        let contents = "\(bundle)/\(name) 2.xcdatamodel/contents"
        let xml = try String(contentsOfFile: contents, encoding: .utf8)
            .replacingOccurrences(of: "<attribute name=\"\(anchor)\"", with: "<attribute name=\"note\" optional=\"YES\" attributeType=\"String\"/><attribute name=\"\(anchor)\"")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: contents))
        let current = try String(contentsOfFile: bundle + "/.xccurrentversion", encoding: .utf8)
            .replacingOccurrences(of: "<string>\(name).xcdatamodel</string>", with: "<string>\(name) 2.xcdatamodel</string>")
        try Data(current.utf8).write(to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        let migrated = try ferry("migrate", store, "--model", bundle, "--out", "\(folder)/\(name).sqlite")
        return (extracted, migrated, folder)
    }

    @Test("the README's flow: a SwiftData store's model extracted, given a second version, and the store migrated to it",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func swiftDataStoreMigrated() throws {
        let (extracted, migrated, folder) = try extractAndMigrate(ModelExtractJobTests.swiftDataStore, name: "CartKit", anchor: "status")
        #expect(extracted.status == 0, "\(extracted.err)")
        #expect(migrated.status == 0, "\(migrated.err)")
        #expect(migrated.out.contains("chain: CartKit → CartKit 2") && migrated.out.contains("verified:"))
        let inspected = try ferry("inspect", folder + "/CartKit.sqlite", "--model", folder + "/CartKit.xcdatamodeld")
        #expect(inspected.out.contains("model: version CartKit 2 of CartKit"))
    }

    @Test("a store of a model built in code: extracted (its validation rules listed as left out), versioned and migrated",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func codeBuiltStoreMigrated() throws {
        let (extracted, migrated, _) = try extractAndMigrate(ModelExtractJobTests.codeBuiltStore, name: "Sample", anchor: "rating")
        #expect(extracted.out.contains("Book.title: 2 validation rules"))
        #expect(migrated.status == 0, "\(migrated.err)")
        #expect(migrated.out.contains("chain: Sample → Sample 2"))
    }

    @Test("model infer: the report and the bundle; exit 2 for usage, 3 for an unreadable file or nothing to model, 4 for an existing bundle")
    func modelInfer() throws {
        let folder = try TestPaths.temporaryFolder("infer-cli")
        let output = folder + "/Tasks.xcdatamodeld"
        let run = try ferry("model", "infer", "Fixtures/legacy/tasks.json", "--entity", "Task", "--out", output)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.contains("read Fixtures/legacy/tasks.json: 30 records\nTask: 30 records\n"))
        #expect(run.out.contains("relationship tags → Tag (to-many, inverse task): 32 values in order, one Tag each (repeats kept)"))
        #expect(run.out.contains("wrote \(output): version Tasks (current), entities Attachment, Tag, Task"))
        #expect(try XcodeModelLoader.loadBundle(at: output).current?.entity(named: "Task")?.relationships.count == 2)
        #expect(try ferry("model", "infer", "Fixtures/legacy/tasks.json", "--entity", "Task", "--out", output).status == 4)
        #expect(try ferry("model", "infer", "Fixtures/legacy/tasks.json", "--entity", "Task", "--out", output, "--force").status == 0)
        let reportOnly = try ferry("model", "infer", "Fixtures/legacy/uploads.csv", "--entity", "Upload")
        #expect(reportOnly.status == 0 && reportOnly.out.hasSuffix("nothing written (no --out)\n"))
        #expect(try ferry("model", "infer", "Fixtures/legacy/uploads.csv").status == 2)
        #expect(try ferry("model", "infer", "--entity", "Upload").status == 2)
        let lower = try ferry("model", "infer", "Fixtures/legacy/uploads.csv", "--entity", "upload")
        #expect(lower.status == 2 && lower.err.contains("(did you mean 'Upload'?)"), "\(lower.err)")
        #expect(try ferry("model", "extract", "x.sqlite", "--entity", "Upload", "--out", folder + "/X.xcdatamodeld").status == 2)
        let missing = try ferry("model", "infer", folder + "/none.csv", "--entity", "Upload")
        #expect(missing.status == 3 && missing.err.contains("none.csv: cannot open"))
        let empty = folder + "/empty.json"
        try Data("[{\"a\": []}]".utf8).write(to: URL(fileURLWithPath: empty))
        let nothing = try ferry("model", "infer", empty, "--entity", "Upload", "--out", folder + "/E.xcdatamodeld")
        #expect(nothing.status == 3 && nothing.err.contains("no key of") && !FileManager.default.fileExists(atPath: folder + "/E.xcdatamodeld"))
    }

    /// Found by a hostile test: the bundle `--force` replaced was renamed aside before the new one
    /// was renamed in, and a SIGTERM between the two left no bundle at the path at all.
    @Test("model extract --force: a SIGTERM as the bundle is replaced leaves the old bundle or the new one, never none",
          .enabled(if: SignalInjection.available, "needs strace"))
    func modelExtractReplacementIsOneStep() throws {
        let folder = try TestPaths.temporaryFolder("extract-signal")
        let store = try ExportTestSupport.workspace2Store(folder)
        let bundle = folder + "/B.xcdatamodeld"
        #expect(try ferry("model", "extract", store, "--out", bundle).status == 0)
        let status = try SignalInjection.run(["model", "extract", store, "--out", bundle, "--force"],
                                             signal: "SIGTERM", after: "rename,renameat,renameat2", on: bundle)
        #expect(status & 0x7F == SIGTERM, "wait status \(status)")
        #expect(FileManager.default.fileExists(atPath: bundle + "/B.xcdatamodel/contents"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") || $0.contains(".ferry-") } == [])
    }

    /// Found by a review: swapped with a link to a bundle elsewhere (an Xcode project's), the
    /// link sat where the new bundle was built, and removing the run's folder unlinked the new
    /// bundle's registered names through it: the project's `contents` and `.xccurrentversion`
    /// were deleted, in the runs whose dictionary order reached them before the link.
    @Test("model extract --force over a link to a bundle elsewhere replaces the link and leaves that bundle alone")
    func modelExtractReplacesALinkOnly() throws {
        let folder = try TestPaths.temporaryFolder("extract-link")
        let store = try ExportTestSupport.workspace2Store(folder)
        let real = folder + "/project/Real.xcdatamodeld"
        try FileManager.default.createDirectory(atPath: folder + "/project", withIntermediateDirectories: false)
        #expect(try ferry("model", "extract", store, "--out", real, "--name", "B").status == 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: real).sorted()
        let bundle = folder + "/B.xcdatamodeld"
        for _ in 0..<10 {
            try? FileManager.default.removeItem(atPath: bundle)
            try FileManager.default.createSymbolicLink(atPath: bundle, withDestinationPath: real)
            #expect(try ferry("model", "extract", store, "--out", bundle, "--force").status == 0)
            #expect(FileInfo.kind(atPath: bundle) == .directory)
            #expect(try FileManager.default.subpathsOfDirectory(atPath: real).sorted() == before)
        }
    }

    /// Found by a review: the new bundle's files were synced but not its folders, so a power loss
    /// after the swap could leave the path holding a bundle without its `contents`: neither bundle.
    @Test("model extract --force: the new bundle is on disk before it takes the old one's place",
          .enabled(if: SignalInjection.available, "needs strace"))
    func modelExtractSyncsBeforeSwapping() throws {
        let folder = try TestPaths.temporaryFolder("extract-durable")
        let store = try ExportTestSupport.workspace2Store(folder)
        let bundle = folder + "/B.xcdatamodeld"
        #expect(try ferry("model", "extract", store, "--out", bundle).status == 0)
        let trace = try SyscallTrace.run(["model", "extract", store, "--out", bundle, "--force"], calls: "fsync,renameat2", in: folder)
        let swap = try #require(trace.firstIndex { $0.contains("RENAME_EXCHANGE") && $0.hasSuffix("= 0") })
        let synced = trace[..<swap].filter { $0.contains("fsync(") && $0.contains(".ferry-") }
        for name in ["/B.xcdatamodel/contents>", "/.xccurrentversion>", "/B.xcdatamodel>", "/B.xcdatamodeld>"] {
            #expect(synced.contains { $0.contains(name) }, "\(name) not synced before the swap")
        }
    }

    @Test("model extract: a bundle a dead run had moved aside to put its new one in place is put back by the next run")
    func modelExtractPutsBackAMovedBundle() throws {
        let folder = try TestPaths.temporaryFolder("extract-aside")
        let store = try ExportTestSupport.workspace2Store(folder)
        let bundle = folder + "/B.xcdatamodeld"
        #expect(try ferry("model", "extract", store, "--out", bundle).status == 0)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: bundle + "/notes.txt"))
        // Where the file system cannot swap two folders: the run's folder holds the old bundle, moved aside.
        let leftover = folder + "/" + OwnedTemporary.name(beside: "B.xcdatamodeld")
        try FileManager.default.createDirectory(atPath: leftover, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: bundle, toPath: leftover + "/replaced")
        let again = try ferry("model", "extract", store, "--out", bundle)
        #expect(again.status == 4 && again.err.contains("exists"), "\(again.err)")
        #expect(try String(contentsOfFile: bundle + "/notes.txt", encoding: .utf8) == "mine")
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }
}
