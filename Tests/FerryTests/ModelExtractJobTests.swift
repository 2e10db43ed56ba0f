import Ferry
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

@Suite("ferry model extract: the model a store carries, as an Xcode model with the store's hashes")
struct ModelExtractJobTests {
    static let swiftDataStore = CorpusStores.path(CorpusStores.cartKit[1])
    static let codeBuiltStore = CorpusStores.path(CorpusStores.derivedAttributeStores[0])

    /// The hidden and visible entries of a folder.
    private func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test("a SwiftData store (to-manys without an inverse, a WAL) gives a bundle with its hashes and nothing left out",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func swiftDataStore() throws {
        let folder = try TestPaths.temporaryFolder("extract")
        let summary = try ModelExtractJob(storePath: Self.swiftDataStore, outputPath: folder + "/CartKit.xcdatamodeld").run()
        #expect(summary.bundlePath == folder + "/CartKit.xcdatamodeld" && summary.versionName == "CartKit")
        #expect(summary.entities == ["CartItemModel", "CartItemModifierModel", "CartModel"])
        #expect(summary.hashesFromMetadata && summary.unwritten.isEmpty)
        let stored = try CoreDataStoreReader(path: Self.swiftDataStore).metadata.versionHashes
        #expect(summary.versionHashes == stored)
        let bundle = try XcodeModelLoader.loadBundle(at: summary.bundlePath)
        let model = try #require(bundle.current)
        #expect(bundle.versions.map(\.name) == ["CartKit"] && model.versionIdentifier == "1.0.0")
        #expect(VersionHasher.hashes(of: model).entityHashes == stored)
        let modifiers = try #require(model.entity(named: "CartItemModel")?.relationship(named: "modifiers"))
        #expect(modifiers.isToMany && modifiers.inverseName == nil && modifiers.deleteRule == .cascade)
        #expect(try entries(folder) == ["CartKit.xcdatamodeld"])
    }

    @Test("a model built in code: --name names the version, and its validation rules are listed as left out",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func codeBuiltModel() throws {
        let folder = try TestPaths.temporaryFolder("extract")
        let summary = try ModelExtractJob(storePath: Self.codeBuiltStore, outputPath: folder + "/Sample.xcdatamodeld/",
                                          versionName: "Sample 1").run()
        #expect(summary.bundlePath == folder + "/Sample.xcdatamodeld" && summary.versionName == "Sample 1")
        #expect(summary.unwritten.map(\.location) == ["Book.title"] && summary.unwritten.allSatisfy { !$0.changesVersionHash })
        let bundle = try XcodeModelLoader.loadBundle(at: summary.bundlePath)
        #expect(bundle.currentVersionName == "Sample 1")
        let pages = try #require(bundle.current?.entity(named: "Book")?.attribute(named: "pagesCount"))
        #expect(pages.isDerived && pages.derivationExpression == "count:(pages)")
    }

    @Test("an existing bundle is refused without --force and replaced whole with it", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func existingOutput() throws {
        let folder = try TestPaths.temporaryFolder("extract")
        let output = folder + "/CartKit.xcdatamodeld"
        try FileManager.default.createDirectory(atPath: output + "/Old.xcdatamodel", withIntermediateDirectories: true)
        #expect(throws: ModelExtractError.self) { try ModelExtractJob(storePath: Self.swiftDataStore, outputPath: output).run() }
        do { _ = try ModelExtractJob(storePath: Self.swiftDataStore, outputPath: output).run() } catch {
            guard case .destinationExists(output) = error else { Issue.record("\(error)"); return }
        }
        #expect(try entries(output) == ["Old.xcdatamodel"])
        _ = try ModelExtractJob(storePath: Self.swiftDataStore, outputPath: output, replaceExisting: true).run()
        #expect(try entries(output) == [".xccurrentversion", "CartKit.xcdatamodel"])
        #expect(try entries(folder) == ["CartKit.xcdatamodeld"])
    }

    @Test("a killed run's half-built bundle beside the output is swept, and a finished run leaves nothing but its bundle",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func deadRunSwept() throws {
        let folder = try TestPaths.temporaryFolder("extract")
        let output = folder + "/CartKit.xcdatamodeld"
        let leftover = output + ".ferry-66666666-6666-4666-8666-666666666666.tmp"
        try FileManager.default.createDirectory(atPath: leftover + "/CartKit.xcdatamodeld/CartKit.xcdatamodel", withIntermediateDirectories: true)
        _ = try ModelExtractJob(storePath: Self.swiftDataStore, outputPath: output).run()
        #expect(try entries(folder) == ["CartKit.xcdatamodeld"])
        #expect(try entries(output) == [".xccurrentversion", "CartKit.xcdatamodel"])
    }

    /// The error of a job that must fail.
    private func failure(_ job: ModelExtractJob) -> ModelExtractError? {
        do { _ = try job.run(); return nil } catch { return error }
    }

    @Test("wrong requests, unreadable stores and stores without a model cache write nothing",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func refusals() throws {
        let folder = try TestPaths.temporaryFolder("extract")
        let output = folder + "/M.xcdatamodeld"
        func isRequest(_ error: ModelExtractError?) -> Bool { if case .invalidRequest? = error { true } else { false } }
        #expect(isRequest(failure(ModelExtractJob(storePath: Self.swiftDataStore, outputPath: folder + "/M.xcdatamodel"))))
        #expect(isRequest(failure(ModelExtractJob(storePath: Self.swiftDataStore, outputPath: folder + "/.xcdatamodeld"))))
        #expect(isRequest(failure(ModelExtractJob(storePath: Self.swiftDataStore, outputPath: output, versionName: "a/b"))))
        let text = folder + "/notes.xcdatamodeld"
        try Data("not a store".utf8).write(to: URL(fileURLWithPath: text))
        #expect(isRequest(failure(ModelExtractJob(storePath: text, outputPath: text, replaceExisting: true))))
        guard case .store(.notSQLite)? = failure(ModelExtractJob(storePath: text, outputPath: output)) else {
            Issue.record("a text file is not a store"); return
        }
        // Apple Notes' NotesV7.storedata: a Z_MODELCACHE row whose content is NULL.
        let emptied = CorpusStores.path("log2timeline__plaso/test_data/macos/NotesV7.storedata")
        guard case .noModelCache(emptied)? = failure(ModelExtractJob(storePath: emptied, outputPath: output)) else {
            Issue.record("NotesV7 has no model cache"); return
        }
        guard case .cannotWrite? = failure(ModelExtractJob(storePath: Self.swiftDataStore, outputPath: folder + "/missing/M.xcdatamodeld")) else {
            Issue.record("a missing parent folder cannot be written"); return
        }
        #expect(try entries(folder) == ["notes.xcdatamodeld"])
    }

    @Test("a model whose hashes the XML cannot keep is not kept: nothing is written, and the reason is named")
    func hashesDiffer() throws {
        let folder = try TestPaths.temporaryFolder("extract")
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "Note", attributes: [Attribute(name: "locked", type: .string, isReadOnly: true), Attribute(name: "text", type: .string)]),
        ])
        let store = folder + "/Notes.sqlite"
        let writer = try CoreDataStoreWriter.create(at: store, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [""])
        try writer.finish()
        guard case let .hashesDiffer(_, entities, unwritten)? = failure(ModelExtractJob(storePath: store, outputPath: folder + "/M.xcdatamodeld")) else {
            Issue.record("the read-only flag is part of the hash"); return
        }
        #expect(entities == ["Note"])
        #expect(unwritten.map(\.location) == ["Note.locked"] && unwritten.allSatisfy(\.changesVersionHash))
        #expect(try entries(folder).filter { !$0.hasPrefix("Notes.sqlite") } == [])
    }

    @Test("a store whose model cannot be written as XML that loads back (a property named \"\") is bad input, named by the store")
    func modelThatDoesNotLoadBack() throws {
        let folder = try TestPaths.temporaryFolder("extract-noload")
        let model = ManagedObjectModel(name: "M", entities: [Entity(name: "Item", attributes: [Attribute(name: "name", type: .string)])])
        let store = folder + "/Items.sqlite"
        let writer = try CoreDataStoreWriter.create(at: store, model: model, versionHashes: VersionHasher.hashes(of: model).entityHashes,
                                                    versionIdentifiers: [""])
        try writer.finish()
        let odd = ManagedObjectModel(name: "M", entities: [Entity(name: "Item", attributes: [Attribute(name: "", type: .string)])])
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        let update = try database.prepare("UPDATE Z_MODELCACHE SET Z_CONTENT = ?")
        try update.bindBlob(try ModelArchiveEncoder.encodeModelCache(odd), at: 1)
        try update.run()
        update.finalize()
        try database.close()
        guard case let .doesNotLoadBack(source, reason)? = failure(ModelExtractJob(storePath: store, outputPath: folder + "/M.xcdatamodeld")) else {
            Issue.record("not .doesNotLoadBack"); return
        }
        #expect(source == store && reason.hasPrefix("M.xcdatamodel/contents:") && reason.contains("missing 'name' attribute"), "\(reason)")
        #expect(try entries(folder).filter { !$0.hasPrefix("Items.sqlite") } == [])
    }
}
