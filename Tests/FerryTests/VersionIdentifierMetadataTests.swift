import Ferry
import FerryFormats
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A store's `NSStoreModelVersionIdentifiers` is its model's: `[]` for a model without an
/// identifier (a model built in code, as SwiftData's and CoreDataPlus's `SampleModel2` stores
/// show), `[""]` for Xcode's empty one. Every store Ferry wrote once said `[""]` for both, so a
/// store restored or migrated from a `[]` one differed from what Core Data writes.
@Suite("version identifiers in the store's metadata")
struct VersionIdentifierMetadataTests {
    private static func version(identifier: String?) -> String {
        let attribute = identifier.map { #" userDefinedModelVersionIdentifier="\#($0)""# } ?? ""
        return #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0"\#(attribute)>"#
            + #"<entity name="Note" syncable="YES"><attribute name="title" attributeType="String"/></entity></model>"#
    }

    /// The store's `NSStoreModelVersionIdentifiers`, and the identifiers of the model its cache holds.
    private func identifiers(of store: String) throws -> (metadata: PropertyListValue?, cache: String?) {
        let reader = try CoreDataStoreReader(path: store)
        let database = try SQLiteDatabase(path: store, mode: .readOnly)
        let statement = try database.prepare("SELECT Z_PLIST FROM Z_METADATA")
        #expect(try statement.step())
        guard case let .dictionary(metadata) = try PropertyList.decode(try #require(statement.bytes(at: 0))) else { return (nil, nil) }
        return (metadata["NSStoreModelVersionIdentifiers"], try StoreModelMatch.archivedModel(of: reader).versionIdentifier)
    }

    @Test("import and migrate write the model's identifiers: none, empty, or one")
    func writtenAsTheModelSays() throws {
        let folder = try TestPaths.temporaryFolder("version-identifiers")
        let bundle = try TestPaths.xcodeModelBundle("Notes", versions: [("Notes 1", Self.version(identifier: nil)),
                                                                      ("Notes 2", Self.version(identifier: "")),
                                                                      ("Notes 3", Self.version(identifier: "3.0"))], in: folder)
        try Data(#"[{"title": "a"}]"#.utf8).write(to: URL(fileURLWithPath: folder + "/notes.json"))
        let expected: [(String, PropertyListValue, String?)] = [("Notes 1", .array([]), nil), ("Notes 2", .array([.string("")]), ""),
                                                                ("Notes 3", .array([.string("3.0")]), "3.0")]
        for (version, metadata, cache) in expected {
            let store = folder + "/\(version).sqlite"
            _ = try ImportJob(request: ImportRequest(sources: [folder + "/notes.json"], modelPath: bundle, modelVersion: version, entity: "Note",
                                                     outputPath: store)).run()
            let found = try identifiers(of: store)
            #expect(found.metadata == metadata, "\(version)")
            #expect(found.cache == cache, "\(version)")
        }
        let migrated = folder + "/migrated.sqlite"
        _ = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(path: folder + "/Notes 2.sqlite", kind: .store)], modelPath: bundle,
                                                   targetVersion: "Notes 1", outputPath: migrated)).run()
        #expect(try identifiers(of: migrated).metadata == .array([]))
    }
}
