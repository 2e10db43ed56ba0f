import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// A record whose required to-one relationship found no destination was written without one:
/// verification then failed the whole run (exit 5, nothing kept) and named rows of the store it
/// discarded, so one bad row lost every good one. Such a record is now a reject with its file
/// and line, removed before the store is verified, and so are the records that needed it.
@Suite("Records whose required link finds nothing")
struct RequiredLinkRejectTests {
    /// A task with an optional one-to-one `detail`, whose inverse `task` is required.
    private static let details = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Task" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="detail" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Detail" inverseName="task" inverseEntity="Detail"/>
            </entity>
            <entity name="Detail" syncable="YES">
                <attribute name="code" attributeType="String"/>
                <relationship name="task" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="detail" inverseEntity="Task"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Project" syncable="YES">
                <attribute name="code" attributeType="Integer 32" usesScalarValueType="YES"/>
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
            </entity>
            <entity name="Task" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="project" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
                <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="children" inverseEntity="Task"/>
                <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="parent" inverseEntity="Task"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="tasks" inverseEntity="Tag"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="title"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Tag" syncable="YES">
                <attribute name="label" attributeType="String"/>
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="tags" inverseEntity="Task"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    /// A store holding project 1 (and a model whose Task.parent is required when `parentRequired`).
    private func storeWithProject(in folder: String, parentRequired: Bool = false) throws -> (store: String, bundle: String) {
        let contents = parentRequired
            ? Self.contents.replacingOccurrences(of: #"<relationship name="parent" optional="YES""#, with: #"<relationship name="parent""#)
            : Self.contents
        let bundle = try TestPaths.xcodeModelBundle("Required", versions: [("Required", contents)], in: folder)
        try "code\n1\n".write(toFile: folder + "/projects.csv", atomically: true, encoding: .utf8)
        let store = folder + "/tasks.sqlite"
        let run = try FerryProcess.run(["import", folder + "/projects.csv", "--model", bundle, "--entity", "Project", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        return (store, bundle)
    }

    @Test("the record is a reject with its line; the others are kept and the store verifies")
    func rejectsTheRecord() throws {
        let folder = try TestPaths.temporaryFolder("required-link-reject")
        let (store, bundle) = try storeWithProject(in: folder)
        try "title,project\nplan,1\nlost,9\nship,1\n".write(toFile: folder + "/tasks.csv", atomically: true, encoding: .utf8)
        let run = try FerryProcess.run(["import", folder + "/tasks.csv", "--model", bundle, "--entity", "Task", "--out", store,
                                        "--append", "--link", "project=code"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("tasks.csv:3") && run.err.contains("no Project has code '9'")
                && run.err.contains("the relationship is required, so the record is rejected"), "\(run.err)")
        #expect(!run.err.contains("more rejects"), "\(run.err)")
        #expect(run.out.contains("read 3, written 2, rejected 1") && run.out.contains("1 records rejected (the relationship is required)"),
                "\(run.out)")
        #expect(try storeRows(store, "SELECT t.ZTITLE || '→' || p.ZCODE FROM ZTASK t JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK")
                == ["plan→1", "ship→1"])
        #expect(try storeRows(store, "SELECT count(*) FROM ZTASK") == ["2"])
        let verified = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
        // Such rejects count against --max-errors like any other: the run stops and writes nothing.
        try "title,project\nlate,1\nlater,9\n".write(toFile: folder + "/more.csv", atomically: true, encoding: .utf8)
        let limited = try FerryProcess.run(["import", folder + "/more.csv", "--model", bundle, "--entity", "Task", "--out", store,
                                            "--append", "--link", "project=code", "--max-errors", "1"])
        #expect(limited.status == 6 && limited.err.contains("stopped after 1 reject (--max-errors); nothing was written"), "\(limited.err)")
        #expect(try storeRows(store, "SELECT count(*) FROM ZTASK") == ["2"])
    }

    @Test("records that needed a rejected one follow it, created destinations included, and no join row names them")
    func cascades() throws {
        let folder = try TestPaths.temporaryFolder("required-link-cascade")
        let (store, bundle) = try storeWithProject(in: folder, parentRequired: true)
        try """
            [{"title": "a", "project": 1, "parent": "a", "tags": ["x"]},
             {"title": "b", "project": 9, "parent": "a", "tags": ["x", "y"]},
             {"title": "c", "project": 1, "parent": "b", "tags": ["y"]},
             {"title": "d", "project": 1, "parent": "c"},
             {"title": "e", "project": 1, "parent": "a"}]
            """.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        let run = try FerryProcess.run(["import", folder + "/tasks.json", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                        "--link", "project=code", "--link", "parent=title", "--link", "tags=label", "--create-missing", "tags"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.contains("read 5, written 2, rejected 3"), "\(run.out)")
        for line in ["tasks.json:2", "tasks.json:3", "tasks.json:4"] { #expect(run.err.contains(line), "\(run.err)") }
        // A Task is never made for a link unasked: the file holds the tasks, and 'b' was rejected.
        #expect(run.err.contains("no Task has title 'b'") && !run.err.contains("none is created"), "\(run.err)")
        #expect(run.err.contains("tasks.json:4 [3]: Task.parent: unresolved link: the Task with title 'c' was rejected"), "\(run.err)")
        #expect(try storeRows(store, "SELECT ZTITLE || '→' || ZPARENT FROM ZTASK ORDER BY Z_PK") == ["a→1", "e→1"])
        #expect(try storeRows(store, "SELECT ZLABEL FROM ZTAG") == ["x"])
        #expect(try storeRows(store, "SELECT count(*) FROM Z_2TASKS WHERE Z_3TASKS NOT IN (SELECT Z_PK FROM ZTASK)") == ["0"])
        let verified = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
    }

    @Test("a link to a record of the file that was rejected finds nothing: no empty stand-in is made for it (one was, its key only, 'written 1' over two rows)")
    func noStandInForARejectedRecord() throws {
        let folder = try TestPaths.temporaryFolder("required-link-no-stand-in")
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Item" syncable="YES"><attribute name="key" attributeType="Integer 64"/><attribute name="f" optional="YES" attributeType="Float"/>"#
            + #"<relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="key"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Items", versions: [("Items", model)], in: folder)
        try #"[{"key": 1, "f": "oops"}, {"key": 2, "parent": 1}]"#.write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        let arguments = ["import", folder + "/items.json", "--model", bundle, "--entity", "Item", "--link", "parent=key"]
        let run = try FerryProcess.run(arguments + ["--out", folder + "/out.sqlite"])
        #expect(run.status == 1, "\(run.err)")
        #expect(run.out.contains("read 2, written 1, rejected 1"), "\(run.out)")
        #expect(run.err.contains("items.json:1 [1]: Item.parent: unresolved link: no Item has key '1'"), "\(run.err)")
        #expect(try storeRows(folder + "/out.sqlite", "SELECT ZKEY || '→' || ifnull(ZPARENT, '-') FROM ZITEM ORDER BY Z_PK") == ["2→-"])
        // Asked for, one is made.
        let asked = try FerryProcess.run(arguments + ["--out", folder + "/asked.sqlite", "--create-missing", "parent"])
        #expect(asked.out.contains("1 destinations created"), "\(asked.out)\(asked.err)")
    }

    @Test("a row the store held before the run is never removed: the merged record's link is reported, the row kept")
    func keepsExistingRows() throws {
        let folder = try TestPaths.temporaryFolder("required-link-existing")
        let (store, bundle) = try storeWithProject(in: folder)
        try "title,project\nplan,1\n".write(toFile: folder + "/first.csv", atomically: true, encoding: .utf8)
        var run = try FerryProcess.run(["import", folder + "/first.csv", "--model", bundle, "--entity", "Task", "--out", store,
                                        "--append", "--link", "project=code"])
        #expect(run.status == 0, "\(run.err)")
        try "title,project\nplan,9\n".write(toFile: folder + "/again.csv", atomically: true, encoding: .utf8)
        run = try FerryProcess.run(["import", folder + "/again.csv", "--model", bundle, "--entity", "Task", "--out", store,
                                    "--append", "--link", "project=code", "--on-duplicate", "keep-newest"])
        #expect(run.err.contains("again.csv:2") && run.err.contains("no Project has code '9'"), "\(run.err)")
        #expect(!run.err.contains("record is rejected"), "\(run.err)")
        #expect(try storeRows(store, "SELECT t.ZTITLE || '→' || p.ZCODE FROM ZTASK t JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT") == ["plan→1"])
    }

    @Test("duplicates merged into a row whose kept copy's required link finds nothing are each rejected, named and counted in their own ledger")
    func mergedCopiesAreRejectedWithTheRow() throws {
        let folder = try TestPaths.temporaryFolder("required-link-merged")
        let (store, bundle) = try storeWithProject(in: folder)
        try """
            [{"title": "plan", "project": 1},
             {"title": "ship", "project": 1},
             {"title": "plan", "project": 9}]
            """.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        let rejects = folder + "/rejects.ndjson"
        let run = try FerryProcess.run(["import", folder + "/tasks.json", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                        "--link", "project=code", "--on-duplicate", "keep-newest", "--rejects", rejects])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.out.contains("read 3, written 1, rejected 2") && run.out.contains("2 records rejected"), "\(run.out)")
        #expect(run.err.contains("tasks.json:1 [0]: Task.project: merged with ") && run.err.contains("tasks.json:3 [2] into one record, whose link found nothing ('9')"),
                "\(run.err)")
        let lines = try String(contentsOfFile: rejects, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.contains { $0.contains(#""line":1"#) } && lines.contains { $0.contains(#""line":3"#) }, "\(lines)")
        #expect(try storeRows(store, "SELECT ZTITLE || '→' || Z_PK FROM ZTASK") == ["ship→2"])
        // A copy read from a store goes to that store's ledger: the run verifies (it failed, exit 5).
        try #"[{"title": "ship", "project": 9}]"#.write(toFile: folder + "/late.json", atomically: true, encoding: .utf8)
        let migrated = try FerryProcess.run(["migrate", store, "Task:" + folder + "/late.json", "--model", bundle, "--out", folder + "/out.sqlite",
                                             "--link", "project=code", "--on-duplicate", "keep-newest"])
        #expect(migrated.status == 1 && !migrated.out.contains("FAILED"), "\(migrated.out)\(migrated.err)")
        #expect(migrated.err.contains("tasks.sqlite Z_PK 2: Task.project: merged with ") && migrated.err.contains("late.json:1 [0] into one record"),
                "\(migrated.err)")
        #expect(try storeRows(folder + "/out.sqlite", "SELECT count(*) FROM ZTASK") == ["0"])
    }

    @Test("a store's record whose to-one becomes required and is empty is a reject of the migration, located by its Z_PK")
    func migratedEmptyRequiredRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-migrate")
        let optional = Self.contents.replacingOccurrences(of: #"<relationship name="project" maxCount="1""#,
                                                          with: #"<relationship name="project" optional="YES" maxCount="1""#)
        let bundle = try TestPaths.xcodeModelBundle("Chain", versions: [("V1", optional), ("V2", Self.contents)], in: folder)
        try "code\n1\n".write(toFile: folder + "/projects.csv", atomically: true, encoding: .utf8)
        try "title,project\nplan,1\nidle,\nship,1\n".write(toFile: folder + "/tasks.csv", atomically: true, encoding: .utf8)
        let old = folder + "/v1.sqlite"
        for (file, entity) in [("projects.csv", "Project"), ("tasks.csv", "Task")] {
            let run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--model-version", "V1", "--entity", entity,
                                            "--out", old, "--append", "--link", "project=code"])
            #expect(run.status == 0, "\(run.err)")
        }
        let migrated = folder + "/v2.sqlite"
        let run = try FerryProcess.run(["migrate", old, "--model", bundle, "--out", migrated])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("v1.sqlite Task Z_PK 2") && run.err.contains("required relationship 'project' is empty"), "\(run.err)")
        #expect(try storeRows(migrated, "SELECT t.ZTITLE || '→' || p.ZCODE FROM ZTASK t JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK")
                == ["plan→1", "ship→1"])
        #expect(try storeRows(migrated, "SELECT count(*) FROM ZTASK") == ["2"])
    }

    @Test("a record that lists a to-many's destinations outside its count, or leaves a bounded one out, is a reject, not a failed run")
    func countOutsideBoundsRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-count")
        let bounded = Self.contents.replacingOccurrences(of: #"<relationship name="tags" optional="YES" toMany="YES""#,
                                                         with: #"<relationship name="tags" toMany="YES" minCount="1" maxCount="2""#)
        let bundle = try TestPaths.xcodeModelBundle("Bounded", versions: [("Bounded", bounded)], in: folder)
        try "code\n1\n".write(toFile: folder + "/projects.csv", atomically: true, encoding: .utf8)
        try """
            [{"title": "a", "project": 1, "tags": ["x"]},
             {"title": "b", "project": 1, "tags": []},
             {"title": "c", "project": 1, "tags": ["x", "y", "z"]},
             {"title": "d", "project": 1, "tags": ["x", "x", "y"]},
             {"title": "e", "project": 1}]
            """.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        let store = folder + "/bounded.sqlite"
        var run = try FerryProcess.run(["import", folder + "/projects.csv", "--model", bundle, "--entity", "Project", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/tasks.json", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                    "--link", "project=code"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("tasks.json:2 [1]: Task.tags: 0 destinations where the model allows 1 to 2"), "\(run.err)")
        #expect(run.err.contains("tasks.json:3 [2]: Task.tags: 3 destinations where the model allows 1 to 2"), "\(run.err)")
        // Left out in an import, where no Tag record could list it: no destination at all.
        #expect(run.err.contains("tasks.json:5 [4]: Task: required relationship 'tags' is empty"), "\(run.err)")
        #expect(try storeRows(store, "SELECT ZTITLE FROM ZTASK ORDER BY Z_PK") == ["a", "d"])
    }

    @Test("a record whose listed destinations are not found, leaving a to-many below its minimum count, is a reject, not a failed run")
    func toManyLeftShortRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-short")
        let bounded = Self.contents.replacingOccurrences(of: #"<relationship name="tags" optional="YES" toMany="YES""#,
                                                         with: #"<relationship name="tags" toMany="YES" minCount="1" maxCount="2""#)
            // No unique label: a tag not found is not created.
            .replacingOccurrences(of: #"<uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints>"#,
                                  with: "")
        let bundle = try TestPaths.xcodeModelBundle("Short", versions: [("Short", bounded)], in: folder)
        try "code\n1\n".write(toFile: folder + "/projects.csv", atomically: true, encoding: .utf8)
        try "label\nx\ny\n".write(toFile: folder + "/tags.csv", atomically: true, encoding: .utf8)
        try """
            [{"title": "a", "project": 1, "tags": ["x"]},
             {"title": "b", "project": 1, "tags": ["nope"]},
             {"title": "c", "project": 1, "tags": ["x", "nope"]},
             {"title": "d", "project": 1, "tags": ["gone", "lost"]}]
            """.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        let store = folder + "/short.sqlite"
        for (file, entity) in [("projects.csv", "Project"), ("tags.csv", "Tag")] {
            let run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--entity", entity, "--out", store]
                                           + (entity == "Tag" ? ["--append"] : []))
            #expect(run.status == 0, "\(run.err)")
        }
        let run = try FerryProcess.run(["import", folder + "/tasks.json", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                        "--link", "project=code", "--link", "tags=label"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("tasks.json:2 [1]: Task.tags: unresolved link: no Tag has label 'nope'; the relationship needs a destination, so the record is rejected"),
                "\(run.err)")
        // One of two listed tags found: the task keeps it.
        #expect(run.err.contains("tasks.json:3 [2]: Task.tags: unresolved link: no Tag has label 'nope'\n"), "\(run.err)")
        #expect(run.out.contains("read 4, written 2, rejected 2") && run.out.contains("2 records rejected (the relationship needs a destination)"),
                "\(run.out)")
        #expect(try storeRows(store, """
            SELECT t.ZTITLE || '→' || g.ZLABEL FROM ZTASK t JOIN Z_2TASKS j ON j.Z_3TASKS = t.Z_PK JOIN ZTAG g ON g.Z_PK = j.Z_2TAGS ORDER BY t.Z_PK
            """) == ["a→x", "c→x"])
        let verified = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
    }

    @Test("a to-many kept on its destinations' rows, left below its minimum by links that find nothing, rejects its record")
    func oneToManyLeftShortRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-short-rows")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Folder" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                    <relationship name="notes" toMany="YES" minCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <entity name="Note" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Folders", versions: [("Folders", contents)], in: folder)
        try "title\nn1\nn2\n".write(toFile: folder + "/notes.csv", atomically: true, encoding: .utf8)
        try """
            [{"name": "f1", "notes": ["n1"]},
             {"name": "f2", "notes": ["zz"]},
             {"name": "f3", "notes": ["n2", "zz"]}]
            """.write(toFile: folder + "/folders.json", atomically: true, encoding: .utf8)
        let store = folder + "/folders.sqlite"
        var run = try FerryProcess.run(["import", folder + "/notes.csv", "--model", bundle, "--entity", "Note", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/folders.json", "--model", bundle, "--entity", "Folder", "--out", store, "--append",
                                    "--link", "notes=title"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("folders.json:2 [1]: Folder.notes: unresolved link: no Note has title 'zz'; the relationship needs a destination"),
                "\(run.err)")
        #expect(try storeRows(store, "SELECT n.ZTITLE || '→' || f.ZNAME FROM ZNOTE n JOIN ZFOLDER f ON f.Z_PK = n.ZFOLDER ORDER BY n.Z_PK")
                == ["n1→f1", "n2→f3"])
        #expect(try storeRows(store, "SELECT ZNAME FROM ZFOLDER ORDER BY Z_PK") == ["f1", "f3"])
        let verified = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
    }

    @Test("in an import, a record that leaves out a required to-one nothing else can fill is a reject; one merged into a row keeps its")
    func absentRequiredKeyRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-absent")
        let (store, bundle) = try storeWithProject(in: folder)
        try #"[{"title": "plan", "project": 1}, {"title": "nokey"}, {"title": "ship", "project": 1}]"#
            .write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        var run = try FerryProcess.run(["import", folder + "/tasks.json", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                        "--link", "project=code"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("tasks.json:1 [1]: Task: required relationship 'project' is empty"), "\(run.err)")
        #expect(try storeRows(store, "SELECT ZTITLE FROM ZTASK ORDER BY Z_PK") == ["plan", "ship"])
        // A CSV without the column: the rows that are new objects are rejects; one that updates a
        // stored task (keep-newest on the unique title) keeps that task's project.
        try "title\nplan\nalone\n".write(toFile: folder + "/titles.csv", atomically: true, encoding: .utf8)
        run = try FerryProcess.run(["import", folder + "/titles.csv", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                    "--on-duplicate", "keep-newest"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("titles.csv:3: Task: required relationship 'project' is empty"), "\(run.err)")
        #expect(!run.err.contains("titles.csv:2"), "\(run.err)")
        #expect(try storeRows(store, "SELECT t.ZTITLE || '→' || p.ZCODE FROM ZTASK t JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK")
                == ["plan→1", "ship→1"])
    }

    @Test("a destination whose only required link is the inverse of the one naming it is still created, and verifies")
    func createsDestinationFilledByTheLink() throws {
        let folder = try TestPaths.temporaryFolder("required-link-inverse")
        let bundle = try TestPaths.xcodeModelBundle("Details", versions: [("Details", Self.details)], in: folder)
        try #"[{"title": "a", "detail": "d1"}, {"title": "b", "detail": "d2"}]"#.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        let store = folder + "/details.sqlite"
        let run = try FerryProcess.run(["import", folder + "/tasks.json", "--model", bundle, "--entity", "Task", "--out", store])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(try storeRows(store, "SELECT d.ZCODE || '→' || t.ZTITLE FROM ZDETAIL d JOIN ZTASK t ON t.Z_PK = d.ZTASK ORDER BY d.Z_PK")
                == ["d1→a", "d2→b"])
    }

    /// Folders that list their notes (`Note.folder` required, filled from `Folder.notes`), notes
    /// that carry files (`File.note` required) and have tags; `Folder.notes` ordered when asked,
    /// and `Note.folder` optional in a version `V1` before the required one `V2` when asked.
    private static func folders(ordered: Bool = false, optionalFolder: Bool = false) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Folder" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="notes" optional="YES" toMany="YES" \#(ordered ? #"ordered="YES" "# : "")deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity>"#
            + #"<entity name="Note" syncable="YES"><attribute name="text" attributeType="String"/>"#
            + #"<relationship name="folder" \#(optionalFolder ? #"optional="YES" "# : "")maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>"#
            + #"<relationship name="files" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="File" inverseName="note" inverseEntity="File"/>"#
            + #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="text"/></uniquenessConstraint></uniquenessConstraints></entity>"#
            + #"<entity name="File" syncable="YES"><attribute name="path" attributeType="String"/>"#
            + #"<relationship name="note" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="files" inverseEntity="Note"/></entity>"#
            + #"<entity name="Tag" syncable="YES"><attribute name="label" attributeType="String"/>"#
            + #"<relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
    }

    @Test("a record whose required to-one only the other side's links could fill, and none does, is a reject of its own; what needed it follows, and the rest verify")
    func unfilledFromTheOtherSideRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-other-side")
        let bundle = try TestPaths.xcodeModelBundle("Folders", versions: [("Folders", Self.folders())], in: folder)
        try """
            [{"text": "n1", "tags": ["x"]},
             {"text": "n2", "tags": ["x", "y"], "files": [{"path": "/a"}]},
             {"text": "n3"}]
            """.write(toFile: folder + "/notes.json", atomically: true, encoding: .utf8)
        try #"[{"name": "F", "notes": ["n1", "n3"]}]"#.write(toFile: folder + "/folders.json", atomically: true, encoding: .utf8)
        try "path,note\n/b,n2\n/c,n1\n".write(toFile: folder + "/files.csv", atomically: true, encoding: .utf8)
        try "label\nx\ny\n".write(toFile: folder + "/tags.csv", atomically: true, encoding: .utf8)
        let sources = ["Note:" + folder + "/notes.json", "Folder:" + folder + "/folders.json", "File:" + folder + "/files.csv", "Tag:" + folder + "/tags.csv",
                       "--model", bundle, "--link", "notes=text", "--link", "note=text", "--link", "tags=label"]
        let store = folder + "/out.sqlite"
        let run = try FerryProcess.run(["migrate"] + sources + ["--out", store])
        #expect(run.status == 1 && !run.out.contains("FAILED"), "\(run.out)\(run.err)")
        #expect(run.err.contains("notes.json:2 [1]: Note: required relationship 'folder' is empty: no record of the run gives it"), "\(run.err)")
        #expect(run.out.contains("Note.folder: 1 records rejected (the relationship is required and no record of the run gives it), with 1 records they carried"),
                "\(run.out)")
        // The file that named the rejected note follows it, as for any rejected destination.
        #expect(run.err.contains("files.csv:2: File.note: unresolved link: no Note has text 'n2'; the relationship is required, so the record is rejected"),
                "\(run.err)")
        // source, entity, version, read, written, merged, rejected, filtered
        let ledgers = run.out.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        for line in ["notes.json Note Folders 3 2 0 1 0", "files.csv File Folders 2 1 0 1 0"] { #expect(ledgers.contains { $0.hasSuffix("/" + line) }, "\(run.out)") }
        #expect(try storeRows(store, "SELECT n.ZTEXT || '→' || f.ZNAME FROM ZNOTE n JOIN ZFOLDER f ON f.Z_PK = n.ZFOLDER ORDER BY n.Z_PK") == ["n1→F", "n3→F"])
        #expect(try storeRows(store, "SELECT f.ZPATH || '→' || n.ZTEXT FROM ZFILE f JOIN ZNOTE n ON n.Z_PK = f.ZNOTE") == ["/c→n1"])
        // No join row names the rejected note.
        #expect(try storeRows(store, "SELECT count(*) FROM Z_3TAGS") == ["1"])
        let verified = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
        // The dry run says the same, and such rejects count against --max-errors.
        let planned = try FerryProcess.run(["plan"] + sources)
        #expect(planned.status == 1 && !planned.out.contains("FAILED") && planned.err.contains("notes.json:2 [1]: Note: required relationship 'folder'"),
                "\(planned.out)\(planned.err)")
        let limited = try FerryProcess.run(["migrate"] + sources + ["--out", folder + "/limited.sqlite", "--max-errors", "1"])
        #expect(limited.status == 6 && limited.err.contains("(--max-errors); nothing was written"), "\(limited.out)\(limited.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/limited.sqlite"))
    }

    @Test("a one-to-one's required side that no record of the other side names is a reject, located where it was read")
    func unfilledOneToOneRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-one-to-one")
        let bundle = try TestPaths.xcodeModelBundle("Details", versions: [("Details", Self.details)], in: folder)
        try #"[{"title": "a", "detail": "d1"}, {"title": "b", "detail": "d3"}]"#.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        try "code\nd1\nd2\nd3\n".write(toFile: folder + "/details.csv", atomically: true, encoding: .utf8)
        let store = folder + "/out.sqlite"
        let run = try FerryProcess.run(["migrate", "Detail:" + folder + "/details.csv", "Task:" + folder + "/tasks.json", "--model", bundle,
                                        "--link", "detail=code", "--out", store])
        #expect(run.status == 1 && !run.out.contains("FAILED"), "\(run.out)\(run.err)")
        #expect(run.err.contains("details.csv:3: Detail: required relationship 'task' is empty: no record of the run gives it"), "\(run.err)")
        #expect(try storeRows(store, "SELECT d.ZCODE || '→' || t.ZTITLE || '→' || t.ZDETAIL FROM ZDETAIL d JOIN ZTASK t ON t.Z_PK = d.ZTASK ORDER BY d.Z_PK")
                == ["d1→a→1", "d3→b→3"])
        let verified = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
    }

    @Test("in an import, a record that leaves out a required to-one its own entity's lists could fill is a reject when none does; those that needed it follow, stored rows stay")
    func unfilledSelfReferenceRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-self")
        let contents = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Item" syncable="YES"><attribute name="key" attributeType="String"/>"#
            + #"<relationship name="parent" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item"/>"#
            + #"<relationship name="children" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="parent" inverseEntity="Item"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="key"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Items", versions: [("Items", contents)], in: folder)
        let store = folder + "/items.sqlite"
        let link = ["--link", "parent=key", "--link", "children=key"]
        try #"[{"key": "r", "parent": "r"}]"#.write(toFile: folder + "/root.json", atomically: true, encoding: .utf8)
        var run = try FerryProcess.run(["import", folder + "/root.json", "--model", bundle, "--entity", "Item", "--out", store] + link)
        #expect(run.status == 0, "\(run.out)\(run.err)")
        try """
            [{"key": "a", "parent": "r", "children": ["b"]},
             {"key": "b"},
             {"key": "c", "children": ["d"]},
             {"key": "d"},
             {"key": "e", "parent": "c"}]
            """.write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        run = try FerryProcess.run(["import", folder + "/items.json", "--model", bundle, "--entity", "Item", "--out", store, "--append"] + link)
        #expect(run.status == 1 && !run.out.contains("FAILED"), "\(run.out)\(run.err)")
        #expect(run.out.contains("read 5, written 2, rejected 3"), "\(run.out)")
        #expect(run.err.contains("items.json:3 [2]: Item: required relationship 'parent' is empty: no record of the run gives it"), "\(run.err)")
        for line in ["items.json:4 [3]", "items.json:5 [4]"] {
            #expect(run.err.contains(line + ": Item: required relationship 'parent' names a record that was rejected"), "\(run.err)")
        }
        #expect(try storeRows(store, "SELECT i.ZKEY || '→' || p.ZKEY FROM ZITEM i JOIN ZITEM p ON p.Z_PK = i.ZPARENT ORDER BY i.Z_PK")
                == ["r→r", "a→r", "b→a"])
        let verified = try FerryProcess.run(["verify", store, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
    }

    @Test("a store's record whose to-one becomes required, filled from an ordered list that does not name it, is a reject of the migration, located by its Z_PK")
    func migratedUnlistedRejects() throws {
        let folder = try TestPaths.temporaryFolder("required-link-listed")
        let bundle = try TestPaths.xcodeModelBundle("Lists", versions: [("V1", Self.folders(ordered: true, optionalFolder: true)),
                                                                      ("V2", Self.folders(ordered: true))], in: folder)
        try "text\nn1\nn2\nn3\n".write(toFile: folder + "/notes.csv", atomically: true, encoding: .utf8)
        try #"[{"name": "F", "notes": ["n3", "n1"]}]"#.write(toFile: folder + "/folders.json", atomically: true, encoding: .utf8)
        let old = folder + "/v1.sqlite"
        for (file, entity) in [("notes.csv", "Note"), ("folders.json", "Folder")] {
            let run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--model-version", "V1", "--entity", entity,
                                            "--out", old, "--append", "--link", "notes=text"])
            #expect(run.status == 0, "\(run.out)\(run.err)")
        }
        let migrated = folder + "/v2.sqlite"
        let run = try FerryProcess.run(["migrate", old, "--model", bundle, "--out", migrated])
        #expect(run.status == 1 && !run.out.contains("FAILED"), "\(run.out)\(run.err)")
        #expect(run.err.contains("v1.sqlite Z_PK 2: Note: required relationship 'folder' is empty: no record of the run gives it"), "\(run.err)")
        #expect(try storeRows(migrated, "SELECT n.ZTEXT || '→' || f.ZNAME FROM ZNOTE n JOIN ZFOLDER f ON f.Z_PK = n.ZFOLDER ORDER BY n.Z_FOK_FOLDER")
                == ["n3→F", "n1→F"])
        let verified = try FerryProcess.run(["verify", migrated, "--model", bundle])
        #expect(verified.status == 0, "\(verified.out)")
    }
}
