import FerryFormats
import FerryModel
import FerryTestSupport
import FoundationEssentials
import Testing

@Suite("Compiled model loader (.momd, .mom)")
struct CompiledModelLoaderTests {
    private static let coredata = TestPaths.corpus + "/coredata"
    private static var momds: [String] {
        Set(TestPaths.files(under: coredata) { $0.hasSuffix(".momd/VersionInfo.plist") }.map { String($0.dropLast("/VersionInfo.plist".count)) }).sorted()
    }

    private static func versionInfo(_ momd: String) throws -> [String: PropertyListValue] {
        guard case .dictionary(let info) = try PropertyList.decode(TestPaths.read(momd + "/VersionInfo.plist")) else { return [:] }
        return info
    }

    @Test("every .momd loads: versions and current version as VersionInfo.plist names them, its hashes and checksums",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func momdsMatchVersionInfo() throws {
        #expect(Self.momds.count == 3)
        var hashes = 0
        for momd in Self.momds {
            let bundle = try XcodeModelLoader.loadBundle(at: momd)
            let info = try Self.versionInfo(momd)
            guard case .dictionary(let versions)? = info["NSManagedObjectModel_VersionHashes"],
                  case .string(let current)? = info["NSManagedObjectModel_CurrentVersionName"] else {
                Issue.record("\(momd): VersionInfo.plist")
                continue
            }
            #expect(Set(bundle.versions.map(\.name)) == Set(versions.keys), "\(momd) versions")
            #expect(bundle.currentVersionName == current && bundle.current != nil, "\(momd) current version")
            for version in bundle.versions {
                guard case .dictionary(let expected)? = versions[version.name] else { continue }
                let computed = VersionHasher.hashes(of: version)
                #expect(Set(computed.entityHashes.keys) == Set(expected.keys), "\(version.name) entities")
                for (entity, value) in expected {
                    #expect(value == .data(computed.entityHashes[entity] ?? []), "\(version.name).\(entity)")
                    hashes += 1
                }
                if case .dictionary(let checksums)? = info["NSManagedObjectModel_VersionChecksums"] {
                    #expect(checksums[version.name] == .string(computed.base64Checksum), "\(version.name) checksum")
                }
            }
        }
        #expect(hashes == 156)
    }

    @Test("a compiled version equals the .xcdatamodel it was compiled from, but for what momc does not archive",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func momdsMatchTheirXML() throws {
        var compared = 0
        for momd in Self.momds {
            for version in try XcodeModelLoader.loadBundle(at: momd).versions {
                guard let xml = ModelArchiveCorpus.xmlCounterpart(of: momd + "/" + version.name + ".mom") else { continue }
                let source = try XcodeModelLoader.loadModel(at: xml)
                // The compiler drops customClassName and usesScalarValueType (modelcache-format.md §4.4).
                ModelArchiveCorpus.expectEqual(version, ModelArchiveCorpus.withoutUnarchivedFields(source), version.name)
                ModelArchiveCorpus.expectEqualHashes(version, source, version.name)
                compared += 1
            }
        }
        #expect(compared == 12)
    }

    @Test("a single .mom loads as a bundle of one version, named after the file", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func singleMom() throws {
        let mom = Self.coredata + "/alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd/SampleModel3_v2.mom"
        let bundle = try XcodeModelLoader.loadBundle(at: mom)
        #expect(bundle.versions.map(\.name) == ["SampleModel3_v2"])
        #expect(bundle.currentVersionName == "SampleModel3_v2")
        #expect(bundle.current?.entity(named: "Pet") != nil)
    }

    @Test("a .momd whose hashes VersionInfo.plist does not confirm is refused, naming the entity",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func wrongHashIsRefused() throws {
        let original = Self.coredata + "/alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd"
        let copy = try TestPaths.temporaryFolder("momd") + "/SampleModel3.momd"
        try FileManager.default.copyItem(atPath: original, toPath: copy)
        var info = try Self.versionInfo(copy)
        guard case .dictionary(var versions)? = info["NSManagedObjectModel_VersionHashes"],
              case .dictionary(var entities)? = versions["SampleModel3_v2"] else {
            Issue.record("VersionInfo.plist")
            return
        }
        entities["Pet"] = .data([UInt8](repeating: 0, count: 32))
        versions["SampleModel3_v2"] = .dictionary(entities)
        info["NSManagedObjectModel_VersionHashes"] = .dictionary(versions)
        try Data(XMLPropertyListWriter().encode(.dictionary(info))).write(to: URL(fileURLWithPath: copy + "/VersionInfo.plist"))
        #expect(throws: ModelLoadError.inconsistent(file: copy + "/SampleModel3_v2.mom",
                                                    reason: "the version hash of entity 'Pet' differs from VersionInfo.plist's")) {
            try XcodeModelLoader.loadBundle(at: copy)
        }
    }
}
