import Ferry
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// A many-to-many ordered on both sides (`Book.shelves`, `Shelf.books`): restore links its pairs
/// from one side and kept only that side's order, numbering the other by `Z_PK`, with exit 0.
/// Until both orders are carried, such a restore is refused and writes nothing.
@Suite("restore of a many-to-many ordered on both sides")
struct BothSidesOrderedRestoreTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Book" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="shelves" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
            </entity>
            <entity name="Shelf" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="books" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelves" inverseEntity="Book"/>
            </entity>
        </model>
        """

    /// A store of three books and two shelves, and its model bundle; with `pairs` false, no shelf lists a book.
    private func store(in folder: String, pairs: Bool) throws -> (store: String, bundle: String) {
        let bundle = try TestPaths.xcodeModelBundle("BothOrdered", versions: [("BothOrdered", Self.contents)], in: folder)
        let shelves = pairs ? #"[{"name": "x", "books": ["c", "a", "b"]}, {"name": "y", "books": ["b", "c"]}]"#
            : #"[{"name": "x", "books": []}, {"name": "y", "books": []}]"#
        return (try ShelvesStore.make(in: folder, bundle: bundle, version: "BothOrdered", shelves: shelves), bundle)
    }

    @Test("with pairs, restore is refused with the relationship named, and nothing is written")
    func refused() throws {
        let folder = try TestPaths.temporaryFolder("both-ordered-restore")
        let (store, bundle) = try store(in: folder, pairs: true)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", format: .ndjson)).run()
        let restored = folder + "/restored.sqlite"
        #expect {
            _ = try RestoreJob(folder: folder + "/out", modelPath: bundle, outputPath: restored).run()
        } throws: { error in
            guard case .verification(_, let reason)? = error as? ExportError else { return false }
            return reason.contains("are both ordered") && reason.contains("nothing written")
        }
        #expect(!FileManager.default.fileExists(atPath: restored))
    }

    @Test("without pairs, restore writes the store")
    func restoredWithoutPairs() throws {
        let folder = try TestPaths.temporaryFolder("both-ordered-restore-empty")
        let (store, bundle) = try store(in: folder, pairs: false)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", format: .ndjson)).run()
        let restored = folder + "/restored.sqlite"
        let summary = try RestoreJob(folder: folder + "/out", modelPath: bundle, outputPath: restored).run()
        #expect(summary.records["Book"] == 3)
        #expect(summary.records["Shelf"] == 2)
    }
}
