import Foundation

/// Paths tests need: the package root, its fixtures and models, and the shared external corpus.
public enum TestPaths {
    /// The package root, found from this file's location (Tests/FerryTestSupport/TestPaths.swift).
    public static let packageRoot: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    /// `../shared/corpus` beside the package root: real files made by Apple's tools and public
    /// conformance suites. Tests that need it are skipped, visibly, when it is absent.
    public static let corpus = packageRoot + "/../shared/corpus"

    /// Whether the external corpus is present.
    public static let corpusAvailable = FileManager.default.fileExists(atPath: corpus + "/README.md")

    public static let fixtures = packageRoot + "/Fixtures"
    public static let migrations = packageRoot + "/Migrations"

    /// Every file under a folder (recursively) whose path satisfies `filter`, sorted.
    public static func files(under folder: String, where filter: (String) -> Bool) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if filter(relative) { found.append(folder + "/" + relative) }
        }
        return found.sorted()
    }

    /// A fresh, empty temporary folder for one test, inside this test process's own folder.
    public static func temporaryFolder(_ label: String = "test") throws -> String {
        let path = TestProcessFolder.path + "/ferry-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A fresh `<name>.xcdatamodel` folder in a temporary folder, its `contents` holding `xml`.
    public static func xcodeModelFolder(_ xml: String, name: String = "Test") throws -> String {
        let folder = try temporaryFolder("model") + "/\(name).xcdatamodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(xml.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        return folder
    }

    /// `<name>.xcdatamodeld` in `folder`: an `.xcdatamodel` per version, its `contents` holding
    /// its XML, the last version current.
    public static func xcodeModelBundle(_ name: String, versions: [(name: String, xml: String)], in folder: String) throws -> String {
        let bundle = folder + "/\(name).xcdatamodeld"
        for version in versions {
            let path = "\(bundle)/\(version.name).xcdatamodel"
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try Data(version.xml.utf8).write(to: URL(fileURLWithPath: path + "/contents"))
        }
        let current = versions.last.map { "<key>_XCCurrentVersionName</key><string>\($0.name).xcdatamodel</string>" } ?? ""
        try Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>\#(current)</dict></plist>"#.utf8)
            .write(to: URL(fileURLWithPath: bundle + "/.xccurrentversion"))
        return bundle
    }

    /// The bytes of a file.
    public static func read(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
