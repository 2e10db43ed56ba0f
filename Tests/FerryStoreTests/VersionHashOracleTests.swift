import FerryFormats
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Ferry's version hashes against the ones Apple's tools computed: every model version of the
/// corpus with a compiled `.momd` `VersionInfo.plist`, and every store whose XML model is known.
@Suite("version hashes equal Apple's", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
struct VersionHashOracleTests {
    private let coredata = TestPaths.corpus + "/coredata"

    /// Each compiled `.momd` and the `.xcdatamodeld` it was compiled from.
    private var momdSources: [(momd: String, bundle: String)] {
        [
            ("richardpiazza__XCServerCoreData/Tests/XCServerCoreData.momd",
             "richardpiazza__XCServerCoreData/Resources/XCServerCoreData.xcdatamodeld"),
            ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel.momd",
             "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"),
            ("alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd",
             "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"),
        ]
    }

    private func dictionary(_ value: PropertyListValue?) -> [String: PropertyListValue]? {
        if case let .dictionary(dictionary) = value { return dictionary }
        return nil
    }

    private func entityHashes(_ value: PropertyListValue?) -> [String: [UInt8]] {
        (dictionary(value) ?? [:]).compactMapValues { if case let .data(bytes) = $0 { bytes } else { nil } }
    }

    private func text(_ value: PropertyListValue?) -> String? {
        if case let .string(string) = value { return string }
        if case let .data(bytes) = value { return Data(bytes).base64EncodedString() }
        return nil
    }

    @Test("every momc VersionInfo.plist version: entity hashes and checksums")
    func compiledModels() throws {
        var checkedVersions = 0
        var checkedChecksums = 0
        for (momd, bundlePath) in momdSources {
            let info = try #require(dictionary(try PropertyList.decode(TestPaths.read("\(coredata)/\(momd)/VersionInfo.plist"))))
            let versions = try #require(dictionary(info["NSManagedObjectModel_VersionHashes"]))
            let checksums = dictionary(info["NSManagedObjectModel_VersionChecksums"]) ?? [:]
            let bundle = try XcodeModelLoader.loadBundle(at: "\(coredata)/\(bundlePath)")
            for (versionName, expected) in versions {
                let model = try #require(bundle.version(named: versionName), "\(bundlePath) lacks \(versionName)")
                let hashes = VersionHasher.hashes(of: model)
                #expect(hashes.entityHashes == entityHashes(expected), "\(momd) \(versionName)")
                checkedVersions += 1
                if let checksum = text(checksums[versionName]) {
                    #expect(hashes.base64Checksum == checksum, "\(momd) \(versionName) checksum")
                    checkedChecksums += 1
                }
            }
        }
        #expect(checkedVersions == 12)
        #expect(checkedChecksums == 3)
    }

    @Test("every store with an XML model: entity hashes, digest and checksum of Z_METADATA")
    func stores() throws {
        var digests = 0
        for (store, modelPath) in CorpusStores.withModels {
            let database = try SQLiteDatabase(path: "\(coredata)/\(store)", mode: .readOnly)
            let statement = try database.prepare("SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
            #expect(try statement.step())
            let plist = try #require(statement.bytes(at: 0))
            let metadata = try #require(dictionary(try PropertyList.decode(plist)))
            let hashes = VersionHasher.hashes(of: try XcodeModelLoader.loadModel(at: "\(coredata)/\(modelPath)"))
            let expected = entityHashes(metadata["NSStoreModelVersionHashes"])
            #expect(!expected.isEmpty)
            #expect(hashes.entityHashes == expected, "\(store): \(hashes.differingEntities(from: expected))")
            if let digest = text(metadata["NSStoreModelVersionHashesDigest"]) {
                #expect(hashes.base64Digest == digest, "\(store) digest")
                digests += 1
            }
            if let checksum = text(metadata["NSStoreModelVersionChecksumKey"]) {
                #expect(hashes.base64Checksum == checksum, "\(store) checksum")
            }
        }
        #expect(digests >= 3)
    }
}
