import Ferry
import FerryMigration
import FerryModel
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Sources that would silently become wrong records are refused before anything is written.
@Suite("import refuses sources that would make wrong records")
struct ImportRefusalTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func importing(_ path: String, entity: String = "UploadEntity", version: String = "Workspace 1",
                           out: String) -> ImportRequest {
        ImportRequest(sources: [path], modelPath: workspace, modelVersion: version, entity: entity, outputPath: out)
    }

    @Test("a JSON file none of whose keys matches an attribute is refused, naming its keys (it wrote all-nil rows)")
    func noMatchingJSONKey() throws {
        let folder = try TestPaths.temporaryFolder("nokeys")
        let path = folder + "/orders.json"
        try Data(#"[{"orderNo": 1, "customer": "张伟"}, {"orderNo": 2, "customer": "李娜"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportJob(request: importing(path, out: folder + "/out.sqlite")).run() }
        #expect(error.description.contains("none of its keys ('orderNo', 'customer') matches an attribute or relationship of UploadEntity"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("names of --map, --link and --create-missing that the model lacks are refused before anything is read (a column was left out, exit 0)")
    func unknownOptionNames() throws {
        let folder = try TestPaths.temporaryFolder("option-names")
        let path = folder + "/uploads.csv"
        try Data("fileName,urlPath\na.jpg,/x\n".utf8).write(to: URL(fileURLWithPath: path))
        let out = folder + "/out.sqlite"
        func refusal(_ change: (inout ImportRequest) -> Void) throws -> String {
            var request = importing(path, out: out)
            change(&request)
            let error = try #require(throws: ImportError.self) { try ImportJob(request: request).run() }
            guard case .unknownName = error else { Issue.record("not .unknownName: \(error)"); return "" }
            #expect(!FileManager.default.fileExists(atPath: out))
            return error.description
        }
        #expect(try refusal { $0.files.keyMap = ["urlPath": "urlPth"] }
            == "--map urlPath=urlPth: UploadEntity has no attribute or relationship 'urlPth' (did you mean 'urlPath'?)")
        var tasks = importing(path, entity: "Task", version: "Workspace 3", out: out)
        tasks.files.linkAttributes = ["attachment": "remotePath"]
        let link = try #require(throws: ImportError.self) { try ImportJob(request: tasks).run() }
        #expect(link.description == "--link attachment=remotePath: no entity has a relationship 'attachment' (did you mean 'attachments'?)")
        tasks.files.linkAttributes = ["attachments": "remotPath"]
        let attribute = try #require(throws: ImportError.self) { try ImportJob(request: tasks).run() }
        #expect(attribute.description == "--link attachments=remotPath: Upload has no attribute 'remotPath' (did you mean 'remotePath'?)")
        tasks.files.linkAttributes = [:]
        tasks.createMissing = ["tgas"]
        let creation = try #require(throws: ImportError.self) { try ImportJob(request: tasks).run() }
        #expect(creation.description == "--create-missing tgas: no entity of Workspace 3 has a relationship 'tgas' (did you mean 'tags'?)")
    }

    @Test("a missing source or an --out folder is named before the destination's checks (an existing --out said 'use --force')")
    func inputBeforeDestination() throws {
        let folder = try TestPaths.temporaryFolder("input-first")
        let out = folder + "/out.sqlite"
        try Data("x".utf8).write(to: URL(fileURLWithPath: out))
        let missing = try #require(throws: ImportError.self) { try ImportJob(request: importing(folder + "/nope.csv", out: out)).run() }
        #expect(missing.description.contains("nope.csv: cannot open: No such file or directory"), "\(missing)")
        let path = folder + "/uploads.csv"
        try Data("fileName\na.jpg\n".utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.createDirectory(atPath: folder + "/store", withIntermediateDirectories: false)
        var request = importing(path, out: folder + "/store")
        request.existingStore = .replace
        let error = try #require(throws: ImportError.self) { try ImportJob(request: request).run() }
        #expect(error.description.contains("store is a folder; --out names the store file to write"), "\(error)")
    }

    @Test("a CSV header none of whose columns matches is refused at line 1")
    func noMatchingCSVColumn() throws {
        let folder = try TestPaths.temporaryFolder("nocolumns")
        let path = folder + "/orders.csv"
        try Data("orderNo;customer\n1;张伟\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportJob(request: importing(path, out: folder + "/out.sqlite")).run() }
        #expect(error.description.contains(":1: none of the columns"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("a file of Ferry's own export with relationships is refused with a pointer to restore (it made fake Tasks)")
    func ownExport() throws {
        let folder = try TestPaths.temporaryFolder("own-export")
        let store = try ExportTestSupport.workspace2Store(folder)
        let exported = folder + "/export"
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: exported, format: .ndjson)).run()
        let error = try #require(throws: ImportError.self) {
            try ImportJob(request: importing(exported + "/Upload.ndjson", entity: "Upload", version: "Workspace 2",
                                             out: folder + "/out.sqlite")).run()
        }
        #expect(error.description.contains("ferry restore \(exported)"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("an export file taken out of its folder is refused too, by its Z_PK key and relationship numbers, in NDJSON and CSV",
          arguments: [ExportFormat.ndjson, .csv])
    func loneExportFile(format: ExportFormat) throws {
        let folder = try TestPaths.temporaryFolder("lone-export")
        let store = try ExportTestSupport.workspace2Store(folder)
        _ = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/export", format: format)).run()
        let name = "Upload." + (format == .csv ? "csv" : "ndjson")
        try FileManager.default.createDirectory(atPath: folder + "/lone", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/export/" + name, toPath: folder + "/lone/" + name)
        let error = try #require(throws: ImportError.self) {
            try ImportJob(request: importing(folder + "/lone/" + name, entity: "Upload", version: "Workspace 2",
                                             out: folder + "/out.sqlite")).run()
        }
        #expect(error.description.contains("carry Z_PK, the row key of a Core Data store") && error.description.contains("ferry restore FOLDER"),
                "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("an export file whose Z_PK reaches an attribute by its renaming identifier is still refused: its lists are keys, not values",
          arguments: ["json", "csv"])
    func exportKeysMatchedByRenamingIdentifier(format: String) throws {
        let folder = try TestPaths.temporaryFolder("export-keys-renamed")
        // What `ferry model infer` once made of an export: Z_PK an attribute by its renaming
        // identifier, the lists of keys links to a new entity by value. Import then created a
        // Tag for each key and linked the records to them, exit 0.
        let header = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        let model = try TestPaths.xcodeModelBundle("Exported", versions: [("V1", header
            + #"<entity name="Item"><attribute name="zPK" elementID="Z_PK" optional="YES" attributeType="Integer 64"/>"#
            + #"<attribute name="name" optional="YES" attributeType="String"/>"#
            + #"<relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#
            + #"<entity name="Tag"><attribute name="value" optional="YES" attributeType="Integer 64"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="value"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#)],
            in: folder)
        let path = folder + "/Item." + format
        // `z_pk`: how a dump of Ferry's PostgreSQL tables spells it.
        let text = format == "csv" ? "z_pk,name,tag\n1,a,7\n" : #"[{"Z_PK": 1, "name": "a", "tag": 7}]"#
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var request = ImportRequest(sources: [path], modelPath: model, entity: "Item", outputPath: folder + "/out.sqlite", createMissing: ["tag"])
        request.files.linkAttributes = ["tag": "value"]
        let error = try #require(throws: ImportError.self) { try ImportJob(request: request).run() }
        #expect(error.description.contains("carry Z_PK, the row key of a Core Data store"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
        // Mapped by the user, the key is an attribute of theirs and the file is read.
        request.files.keyMap = [format == "csv" ? "z_pk" : "Z_PK": "zPK"]
        #expect(try ImportJob(request: request).run().written == 1)
    }

    @Test("two keys of one JSON object that feed one attribute are refused, as two such CSV columns are (one value was lost)")
    func twoKeysOneAttribute() throws {
        let folder = try TestPaths.temporaryFolder("two-keys")
        let path = folder + "/uploads.json"
        try Data(#"[{"fileName": "a.png", "FileName": "b.png"}]"#.utf8).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: ImportError.self) { try ImportJob(request: importing(path, out: folder + "/out.sqlite")).run() }
        #expect(error.description.contains("two keys of one object feed attribute 'fileName' (the second is 'FileName', in [0])"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.sqlite"))
    }

    @Test("a JSON key that matches two attributes only ignoring case is refused, naming both, as such a CSV column is (it fed one)")
    func keyMatchingTwoAttributesIgnoringCase() throws {
        let folder = try TestPaths.temporaryFolder("case-keys")
        let model = ManagedObjectModel(name: "Amb", entities: [
            Entity(name: "Rec", attributes: [Attribute(name: "fileName", type: .string), Attribute(name: "filename", type: .string),
                                             Attribute(name: "size", type: .string, renamingIdentifier: "old"),
                                             Attribute(name: "length", type: .string, renamingIdentifier: "old")]),
        ])
        let schema = try #require(RecordSchema(model: model, entityName: "Rec"))
        let matcher = PropertyKeyMatcher(schema: schema)
        #expect(try matcher.attributeIndex(forKey: "filename") == 1, "an exact name decides")
        let byCase = try #require(throws: AmbiguousKey.self) { try matcher.attributeIndex(forKey: "FILENAME") }
        #expect(byCase.key == "FILENAME" && byCase.attributes == ["fileName", "filename"] && byCase.rule == "ignoring case")
        let byRenaming = try #require(throws: AmbiguousKey.self) { try matcher.attributeIndex(forKey: " old ") }
        #expect(byRenaming.key == "old" && byRenaming.attributes == ["size", "length"] && byRenaming.rule == "by renaming identifier")
        #expect(try PropertyKeyMatcher(schema: schema, keyMap: ["FILENAME": "filename"]).attributeIndex(forKey: "FILENAME") == 1)
        var decoder = try DocumentRecordDecoder(schema: schema, model: model)
        let error = try #require(throws: RecordSourceError.self) {
            try decoder.decode([("FILENAME", .string("x"))], at: SourceLocation(file: folder + "/a.json", line: 1))
        }
        #expect(error.description.contains("'FILENAME' matches attributes 'fileName' and 'filename' alike (ignoring case)"), "\(error)")
    }

    @Test("a CSV header with spaces around a name (a non-breaking one too) still feeds its attribute instead of leaving the column out")
    func spacesAroundHeaderNames() throws {
        let folder = try TestPaths.temporaryFolder("header-spaces")
        let path = folder + "/uploads.csv"
        try Data("fileName ,\u{00A0}fileSize\nphoto.png,12.5\n".utf8).write(to: URL(fileURLWithPath: path))
        _ = try ImportJob(request: importing(path, out: folder + "/out.sqlite")).run()
        #expect(try storeRows(folder + "/out.sqlite", "SELECT ZFILENAME || '|' || ZFILESIZE FROM ZUPLOADENTITY") == ["photo.png|12.5"])
    }
}
