import FoundationEssentials
@testable import FerryFormats

/// The external corpus (`../shared/corpus` next to the package root), used when present.
/// Tests that need it carry `.enabled(if: PropertyListCorpus.isAvailable)` and are skipped,
/// visibly, when it is absent.
enum PropertyListCorpus {
    static let root: String = {
        let testFile = URL(filePath: #filePath)
        let packageRoot = testFile.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return packageRoot.deletingLastPathComponent().appending(path: "shared/corpus").path(percentEncoded: false)
    }()

    static let conformance = root + "/conformance"
    static let isAvailable = FileManager.default.fileExists(atPath: conformance)

    static let swiftFoundation = conformance + "/swift-foundation-test-resources/Tests/FoundationEssentialsTests/Resources"
    static let corelibs = conformance + "/swift-corelibs-foundation-test-resources/Tests/Foundation/Resources"
    static let rust = conformance + "/rust-plist-test-data/tests/data"
    static let biplist = conformance + "/biplist-test-data/tests"
    static let node = conformance + "/node-bplist-parser-test-data/test"
    static let goXML = conformance + "/go-plist-xml-unusual-cases/testdata/xml_unusual_cases"

    struct MissingFile: Error { let path: String }

    static func bytes(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { throw MissingFile(path: path) }
        return [UInt8](data)
    }

    /// Full paths of the files directly in `directory` whose names end in `suffix`, sorted.
    static func files(in directory: String, suffix: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(suffix) }
            .sorted()
            .map { directory + "/" + $0 }
    }

    /// Every file named `name` below `directory`, sorted.
    static func files(named name: String, under directory: String) -> [String] {
        let relatives = (try? FileManager.default.subpathsOfDirectory(atPath: directory)) ?? []
        return relatives.filter { $0 == name || $0.hasSuffix("/" + name) }.sorted().map { directory + "/" + $0 }
    }
}

extension PropertyListValue {
    /// The value under `key` of a dictionary, for terse expectations.
    subscript(key: String) -> PropertyListValue? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries[key]
    }
}
