import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A legacy CSV's foreign-key column (`project` holding a project's name) was ignored with a
/// warning even under `--link project=name`, while the same key in JSON linked: the records
/// lost their relationship. A column that names a to-one relationship now links each record to
/// the destination its value finds, by the same rules as a document's key.
@Suite("CSV columns that name a to-one relationship")
struct CSVRelationshipColumnTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Project" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <attribute name="code" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Tag" syncable="YES">
                <attribute name="label" attributeType="String"/>
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="tags" inverseEntity="Task"/>
            </entity>
            <entity name="Task" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="tasks" inverseEntity="Tag"/>
            </entity>
        </model>
        """

    /// A store holding projects 東京 (code 1) and Berlin (code 2); its path and the model's.
    private func storeWithProjects(in folder: String) throws -> (store: String, bundle: String) {
        let bundle = try TestPaths.xcodeModelBundle("Tasks", versions: [("Tasks", Self.contents)], in: folder)
        try "name,code\n東京,1\nBerlin,2\n".write(toFile: folder + "/projects.csv", atomically: true, encoding: .utf8)
        let store = folder + "/tasks.sqlite"
        let run = try FerryProcess.run(["import", folder + "/projects.csv", "--model", bundle, "--entity", "Project", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        return (store, bundle)
    }

    private func importTasks(_ csv: String, into store: String, bundle: String, in folder: String, _ options: [String] = []) throws -> FerryProcess.Result {
        try csv.write(toFile: folder + "/tasks.csv", atomically: true, encoding: .utf8)
        return try FerryProcess.run(["import", folder + "/tasks.csv", "--model", bundle, "--entity", "Task", "--out", store, "--append"] + options)
    }

    @Test("the column links by the destination's only unique attribute, creating missing destinations as JSON does")
    func linksByUniqueAttribute() throws {
        let folder = try TestPaths.temporaryFolder("csv-links-unique")
        let (store, bundle) = try storeWithProjects(in: folder)
        let run = try importTasks("title,Project\nplan,東京\nship,Berlin\nidle,\nnew,Paris\n", into: store, bundle: bundle, in: folder)
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("ignored"), "\(run.err)")
        #expect(try storeRows(store, "SELECT t.ZTITLE || '→' || IFNULL(p.ZNAME, '-') FROM ZTASK t LEFT JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK")
                == ["plan→東京", "ship→Berlin", "idle→-", "new→Paris"])
        #expect(try storeRows(store, "SELECT COUNT(*) FROM ZPROJECT") == ["3"])
    }

    @Test("--map KEY=RELATIONSHIP names a relationship's column in CSV and its key in JSON")
    func mappedKey() throws {
        let folder = try TestPaths.temporaryFolder("csv-links-mapped")
        let (store, bundle) = try storeWithProjects(in: folder)
        var run = try importTasks("title,projectName\nplan,東京\n", into: store, bundle: bundle, in: folder, ["--map", "projectName=project"])
        #expect(run.status == 0, "\(run.err)")
        try #"{"title": "ship", "projectName": "Berlin"}"#.write(toFile: folder + "/tasks.ndjson", atomically: true, encoding: .utf8)
        run = try FerryProcess.run(["import", folder + "/tasks.ndjson", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                    "--map", "projectName=project"])
        #expect(run.status == 0, "\(run.err)")
        #expect(try storeRows(store, "SELECT t.ZTITLE || '→' || p.ZNAME FROM ZTASK t JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK")
                == ["plan→東京", "ship→Berlin"])
    }

    @Test("--link names the attribute; a value of the wrong type rejects the record; an unknown one is an unresolved link")
    func linksByNamedAttribute() throws {
        let folder = try TestPaths.temporaryFolder("csv-links-named")
        let (store, bundle) = try storeWithProjects(in: folder)
        let run = try importTasks("title,project\nplan,1\nship,two\nlost,9\n", into: store, bundle: bundle, in: folder, ["--link", "project=code"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("tasks.csv:3") && run.err.contains("Project.code"), "\(run.err)")
        #expect(run.err.contains("unresolved"), "\(run.err)")
        #expect(try storeRows(store, "SELECT t.ZTITLE || '→' || IFNULL(p.ZNAME, '-') FROM ZTASK t LEFT JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK")
                == ["plan→東京", "lost→-"])
        #expect(try storeRows(store, "SELECT COUNT(*) FROM ZPROJECT") == ["2"])
    }

    @Test("a to-many's column is reported, not split; a relationship with nothing to match is refused")
    func toManyAndUnmatchable() throws {
        let folder = try TestPaths.temporaryFolder("csv-links-refused")
        let (store, bundle) = try storeWithProjects(in: folder)
        let reported = try importTasks("title,tags\nplan,\"a;b\"\n", into: store, bundle: bundle, in: folder)
        #expect(reported.status == 0 && reported.err.contains("to-many relationship tags"), "\(reported.err)")
        #expect(try storeRows(store, "SELECT COUNT(*) FROM ZTAG") == ["0"])
        let noUnique = Self.contents.replacingOccurrences(of: "<uniquenessConstraints><uniquenessConstraint><constraint value=\"name\"/></uniquenessConstraint></uniquenessConstraints>", with: "")
        let other = try TestPaths.xcodeModelBundle("Loose", versions: [("Loose", noUnique)], in: folder)
        try "title,project\nplan,東京\n".write(toFile: folder + "/loose.csv", atomically: true, encoding: .utf8)
        let refused = try FerryProcess.run(["import", folder + "/loose.csv", "--model", other, "--entity", "Task", "--out", folder + "/loose.sqlite"])
        #expect(refused.status == 3 && refused.err.contains("say which Project attribute they match with --link project=ATTRIBUTE"), "\(refused.err)")
    }

    @Test("an empty field or a null for a required to-one rejects the record with its line, instead of failing the whole run")
    func emptyRequiredRejects() throws {
        let folder = try TestPaths.temporaryFolder("csv-links-required")
        let required = Self.contents.replacingOccurrences(
            of: #"<relationship name="project" optional="YES" maxCount="1""#, with: #"<relationship name="project" maxCount="1""#)
        let bundle = try TestPaths.xcodeModelBundle("Required", versions: [("Required", required)], in: folder)
        try "name,code\n東京,1\n".write(toFile: folder + "/projects.csv", atomically: true, encoding: .utf8)
        try "title,project\nplan,東京\nidle,\n".write(toFile: folder + "/tasks.csv", atomically: true, encoding: .utf8)
        try #"[{"title": "ship", "project": "東京"}, {"title": "wait", "project": null}]"#.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        let store = folder + "/required.sqlite"
        var run = try FerryProcess.run(["import", folder + "/projects.csv", "--model", bundle, "--entity", "Project", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        for (file, reject) in [("tasks.csv", "tasks.csv:3"), ("tasks.json", "tasks.json:1 [1]")] {
            run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--entity", "Task", "--out", store, "--append"])
            #expect(run.status == 1, "\(run.err)")
            #expect(run.err.contains(reject) && run.err.contains("required relationship is empty"), "\(run.err)")
        }
        #expect(try storeRows(store, "SELECT t.ZTITLE || '→' || p.ZNAME FROM ZTASK t JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK")
                == ["plan→東京", "ship→東京"])
    }
}
