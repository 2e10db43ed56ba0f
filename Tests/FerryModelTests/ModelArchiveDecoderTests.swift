import FerryFormats
import FerryModel
import FerryTestSupport
import Testing

@Suite("Model archive decoder")
struct ModelArchiveDecoderTests {
    @Test("every .mom in the corpus decodes and equals its XML version", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func momsMatchXML() throws {
        let moms = ModelArchiveCorpus.moms
        #expect(moms.count == 12)
        var compared = 0
        for mom in moms {
            let name = String(mom.split(separator: "/").last?.dropLast(4) ?? "")
            let decoded = try ModelArchiveDecoder.decodeModel(archive: TestPaths.read(mom), name: name)
            #expect(!decoded.entities.isEmpty, "\(mom)")
            guard let xml = ModelArchiveCorpus.xmlCounterpart(of: mom) else { continue }
            let loaded = try XcodeModelLoader.loadModel(at: xml)
            // customClassName and usesScalarValueType are not in a .mom (modelcache-format.md §4.4).
            ModelArchiveCorpus.expectEqual(decoded, ModelArchiveCorpus.withoutUnarchivedFields(loaded), name)
            ModelArchiveCorpus.expectEqualHashes(decoded, loaded, name)
            compared += 1
        }
        #expect(compared == 12)
    }

    @Test("decoded .mom hashes equal momc's VersionInfo.plist", .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func momHashesMatchVersionInfo() throws {
        var checked = 0
        for mom in ModelArchiveCorpus.moms {
            let folder = String(mom[..<(mom.lastIndex(of: "/") ?? mom.endIndex)])
            let name = String(mom.split(separator: "/").last?.dropLast(4) ?? "")
            guard case .dictionary(let info) = try PropertyList.decode(TestPaths.read(folder + "/VersionInfo.plist")),
                  case .dictionary(let versions)? = info["NSManagedObjectModel_VersionHashes"],
                  case .dictionary(let expected)? = versions[name] else { continue }
            let decoded = try ModelArchiveDecoder.decodeModel(archive: TestPaths.read(mom), name: name)
            let hashes = VersionHasher.hashes(of: decoded)
            for (entity, value) in expected {
                guard case .data(let bytes) = value else { continue }
                #expect(hashes.entityHashes[entity] == bytes, "\(name).\(entity)")
                checked += 1
            }
            #expect(Set(hashes.entityHashes.keys) == Set(expected.keys), "\(name) entity set")
        }
        #expect(checked > 100)
    }
}
