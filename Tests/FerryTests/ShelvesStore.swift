import Ferry
import Foundation

/// Three books (`a`, `b`, `c`) and the shelves of `shelves` (a JSON array of `{"name", "books"}`,
/// books named by title, in the shelf's order), imported into a store of `version` of `bundle`:
/// the stores of the ordered many-to-many tests.
enum ShelvesStore {
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
