import Ferry
import Foundation

/// Three books (`a`, `b`, `c`) and the shelves of `shelves` (a JSON array of `{"name", "books"}`,
/// books named by title, in the shelf's order), imported into a store of `version` of `bundle`:
/// the stores of the ordered many-to-many tests.
enum ShelvesStore {
    /// The model of version `version` (1, or 2, which adds `Shelf.color`): `Book.shelves` ⇄
    /// `Shelf.books`, ordered on the shelf's side, and on the book's too when `booksOrdered`.
    static func contents(version: Int, booksOrdered: Bool) -> String {
        let color = version == 1 ? "" : "\n        <attribute name=\"color\" optional=\"YES\" attributeType=\"String\"/>"
        let ordered = booksOrdered ? " ordered=\"YES\"" : ""
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Book" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="shelves" optional="YES" toMany="YES"\(ordered) deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                </entity>
                <entity name="Shelf" syncable="YES">
                    <attribute name="name" attributeType="String"/>\(color)
                    <relationship name="books" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="shelves" inverseEntity="Book"/>
                </entity>
            </model>
            """
    }

    static func make(in folder: String, bundle: String, version: String, shelves: String) throws -> String {
        let store = folder + "/shelves.sqlite"
        try "title\na\nb\nc\n".write(toFile: folder + "/books.csv", atomically: true, encoding: .utf8)
        try shelves.write(toFile: folder + "/shelves.json", atomically: true, encoding: .utf8)
        for (file, entity, links) in [("books.csv", "Book", [:]), ("shelves.json", "Shelf", ["books": "title"])] {
            _ = try ImportJob(request: ImportRequest(sources: [folder + "/" + file], modelPath: bundle, modelVersion: version, entity: entity,
                                                     outputPath: store, existingStore: entity == "Book" ? .refuse : .append,
                                                     files: FileRecordSource(linkAttributes: links))).run()
        }
        return store
    }
}
