import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Merged duplicates were part one record, part another, with exit 0 and a store that verified:
/// a Cat that duplicated a stored Dog's name (a constraint of their abstract parent) left its
/// values on the Dog; and the row of a merged task got its attributes from the record kept but
/// the relationships of every copy.
@Suite("Merged duplicates")
struct DuplicateMergeTests {
    private static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Animal" isAbstract="YES" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="Dog" parentEntity="Animal" syncable="YES">
                <attribute name="breed" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Cat" parentEntity="Animal" syncable="YES">
                <attribute name="lives" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
            </entity>
            <entity name="Owner" syncable="YES">
                <attribute name="oname" attributeType="String"/>
                <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Animal"/>
                <relationship name="favorite" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Dog"/>
            </entity>
        </model>
        """

    @Test("a record whose unique values a sibling entity's row holds is a reject under every duplicate policy, not a merge",
          arguments: ["keep-newest", "keep-first"])
    func rejectsAcrossSiblings(policy: String) throws {
        let folder = try TestPaths.temporaryFolder("duplicate-sibling")
        let bundle = try TestPaths.xcodeModelBundle("Animals", versions: [("Animals", Self.contents)], in: folder)
        try "name,breed\nrex,lab\nfido,pug\n".write(toFile: folder + "/dogs.csv", atomically: true, encoding: .utf8)
        try "name,lives\nrex,9\ntom,7\n".write(toFile: folder + "/cats.csv", atomically: true, encoding: .utf8)
        let store = folder + "/animals.sqlite"
        var run = try FerryProcess.run(["import", folder + "/dogs.csv", "--model", bundle, "--entity", "Dog", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/cats.csv", "--model", bundle, "--entity", "Cat", "--out", store, "--append",
                                    "--on-duplicate", policy])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("cats.csv:2: Cat: a Dog (Z_PK 1) already holds these values on unique (name); a Cat cannot be merged"),
                "\(run.err)")
        #expect(try storeRows(store, "SELECT ZNAME || '|' || coalesce(ZBREED, '') || '|' || coalesce(ZLIVES, '') FROM ZANIMAL ORDER BY Z_PK")
                == ["rex|lab|", "fido|pug|", "tom||7"])
    }

    @Test("a nested object whose unique values a sibling entity's row holds rejects its carrier before anything of it is written (its other nested objects stayed)")
    func nestedAcrossSiblings() throws {
        let folder = try TestPaths.temporaryFolder("duplicate-sibling-nested")
        let contents = Self.contents.replacingOccurrences(of: #"<relationship name="favorite""#, with: """
            <relationship name="dogs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Dog"/>
            <relationship name="cats" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Cat"/>
            <relationship name="favorite"
            """)
        let bundle = try TestPaths.xcodeModelBundle("Animals", versions: [("Animals", contents)], in: folder)
        try "name,breed\nrex,lab\n".write(toFile: folder + "/dogs.csv", atomically: true, encoding: .utf8)
        try #"[{"oname": "A", "dogs": [{"name": "fido"}], "cats": [{"name": "rex"}]}, {"oname": "B", "cats": [{"name": "tom"}]}]"#
            .write(toFile: folder + "/owners.json", atomically: true, encoding: .utf8)
        let store = folder + "/animals.sqlite"
        var run = try FerryProcess.run(["import", folder + "/dogs.csv", "--model", bundle, "--entity", "Dog", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/owners.json", "--model", bundle, "--entity", "Owner", "--out", store, "--append"])
        #expect(run.status == 1, "\(run.out)\(run.err)")
        #expect(run.err.contains("cats[0]: a Dog (Z_PK 1) already holds these values on unique (name); a Cat cannot be merged"), "\(run.err)")
        #expect(try storeRows(store, "SELECT ZNAME || '|' || Z_ENT FROM ZANIMAL ORDER BY Z_PK") == ["rex|3", "tom|2"])
        #expect(try storeRows(store, "SELECT ZONAME FROM ZOWNER") == ["B"])
    }

    @Test("find or create makes no destination whose value a sibling's row holds, and links to an abstract entity need none made")
    func findOrCreateAcrossSiblings() throws {
        let folder = try TestPaths.temporaryFolder("duplicate-find-or-create")
        let bundle = try TestPaths.xcodeModelBundle("Animals", versions: [("Animals", Self.contents)], in: folder)
        try "name,breed\nrex,lab\nfido,pug\n".write(toFile: folder + "/dogs.csv", atomically: true, encoding: .utf8)
        try "name,lives\ntom,7\n".write(toFile: folder + "/cats.csv", atomically: true, encoding: .utf8)
        try #"[{"oname": "A", "pets": ["rex", "tom"], "favorite": "tom"}, {"oname": "B", "favorite": "newdog"}]"#
            .write(toFile: folder + "/owners.json", atomically: true, encoding: .utf8)
        let store = folder + "/animals.sqlite"
        for (file, entity) in [("dogs.csv", "Dog"), ("cats.csv", "Cat")] {
            let run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--entity", entity, "--out", store]
                                           + (entity == "Cat" ? ["--append"] : []))
            #expect(run.status == 0, "\(run.err)")
        }
        // A Dog named tom could not be inserted beside the Cat (a raw SQLite UNIQUE error ended
        // the run); pets, whose destination is abstract, refused to run at all.
        let run = try FerryProcess.run(["import", folder + "/owners.json", "--model", bundle, "--entity", "Owner", "--out", store, "--append",
                                        "--link", "favorite=name", "--link", "pets=name", "--create-missing", "favorite"])
        #expect(run.status == 1, "an unresolved link exits 1: \(run.out)\(run.err)")
        #expect(run.err.contains("owners.json:1 [0]: Owner.favorite: unresolved link: no Dog has name 'tom'"), "\(run.err)")
        #expect(run.out.contains("Owner.pets by Animal.name: 2 of 2 links resolved"), "\(run.out)")
        #expect(try storeRows(store, "SELECT ZNAME || '|' || Z_ENT FROM ZANIMAL ORDER BY Z_PK") == ["rex|3", "fido|3", "tom|2", "newdog|3"])
    }

    @Test("under keep-newest a nested object that only names its record links it and keeps its values; one that describes it replaces them")
    func nestedReferenceKeepsValues() throws {
        let folder = try TestPaths.temporaryFolder("duplicate-nested-reference")
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                <entity name="Child" syncable="YES">
                    <attribute name="title" attributeType="String"/>
                    <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Parent" inverseName="children" inverseEntity="Parent"/>
                </entity>
                <entity name="Parent" syncable="YES">
                    <attribute name="code" attributeType="String"/>
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="children" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Child" inverseName="parent" inverseEntity="Child"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Parents", versions: [("Parents", contents)], in: folder)
        try "code,name\nP1,Alpha\nP2,Beta\n".write(toFile: folder + "/parents.csv", atomically: true, encoding: .utf8)
        try #"[{"title": "c1", "parent": {"code": "P1"}}, {"title": "c2", "parent": {"code": "P2", "name": "Gamma"}}]"#
            .write(toFile: folder + "/children.json", atomically: true, encoding: .utf8)
        let store = folder + "/parents.sqlite"
        var run = try FerryProcess.run(["import", folder + "/parents.csv", "--model", bundle, "--entity", "Parent", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/children.json", "--model", bundle, "--entity", "Child", "--out", store, "--append",
                                    "--on-duplicate", "keep-newest"])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        // P1's name was set to nil by a reference that only named it.
        #expect(try storeRows(store, """
            SELECT c.ZTITLE || '→' || p.ZCODE || '|' || coalesce(p.ZNAME, 'NULL') FROM ZCHILD c JOIN ZPARENT p ON p.Z_PK = c.ZPARENT ORDER BY c.Z_PK
            """) == ["c1→P1|Alpha", "c2→P2|Gamma"])
    }

    private static let tasks = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Project" syncable="YES">
                <attribute name="code" attributeType="Integer 32" usesScalarValueType="YES"/>
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
            </entity>
            <entity name="Task" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <attribute name="note" optional="YES" attributeType="String"/>
                <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
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

    @Test("a merged row's relationships are those of the record it keeps: the first's, or those the newest gives",
          arguments: [("keep-first", ["a|first|1|x", "b|one|NULL|x"]), ("keep-newest", ["a|second|2|y", "b|two|NULL|x"])])
    func relationshipsOfTheKeptRecord(policy: String, expected: [String]) throws {
        let folder = try TestPaths.temporaryFolder("duplicate-links")
        let bundle = try TestPaths.xcodeModelBundle("Tasks", versions: [("Tasks", Self.tasks)], in: folder)
        try "code\n1\n2\n".write(toFile: folder + "/projects.csv", atomically: true, encoding: .utf8)
        // b's second copy says nothing of its tags: the first copy's stay under either policy.
        try """
            [{"title": "a", "note": "first", "project": 1, "tags": ["x"]},
             {"title": "b", "note": "one", "tags": ["x"]},
             {"title": "a", "note": "second", "project": 2, "tags": ["y"]},
             {"title": "b", "note": "two"}]
            """.write(toFile: folder + "/tasks.json", atomically: true, encoding: .utf8)
        let store = folder + "/tasks.sqlite"
        var run = try FerryProcess.run(["import", folder + "/projects.csv", "--model", bundle, "--entity", "Project", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        run = try FerryProcess.run(["import", folder + "/tasks.json", "--model", bundle, "--entity", "Task", "--out", store, "--append",
                                    "--link", "project=code", "--on-duplicate", policy])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(try storeRows(store, """
            SELECT t.ZTITLE || '|' || coalesce(t.ZNOTE, 'NULL') || '|' || coalesce(p.ZCODE, 'NULL') || '|'
                || coalesce((SELECT group_concat(g.ZLABEL) FROM Z_2TASKS j JOIN ZTAG g ON g.Z_PK = j.Z_2TAGS WHERE j.Z_3TASKS = t.Z_PK), '')
            FROM ZTASK t LEFT JOIN ZPROJECT p ON p.Z_PK = t.ZPROJECT ORDER BY t.Z_PK
            """) == expected)
    }

    private static let lists = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Entry" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="entries" inverseEntity="List"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="entries" inverseEntity="Tag"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="List" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="entries" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Entry" inverseName="list" inverseEntity="Entry"/>
            </entity>
            <entity name="Tag" syncable="YES">
                <attribute name="label" attributeType="String"/>
                <relationship name="entries" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Entry" inverseName="tags" inverseEntity="Entry"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="label"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
        </model>
        """

    /// Stores keep their pairs apart from the records (an ordered list read from the list's side, a
    /// join table): the pairs naming a dropped copy went to the kept row, so keep-first's kept
    /// entry took the second store's list (the first list lost it, "claimed by several"). A pair
    /// that is the dropped copy's to-one now goes with it; a many-to-many pair follows the merge,
    /// so store 2's entry x keeps its tag "red" though store 2's "red" merged into store 1's (a
    /// review caught a first version that dropped it).
    @Test("merging copies from two stores: a copy's to-one follows the copy kept; many-to-many pairs follow the merge",
          arguments: [("keep-first", ["L1|cab", "L2|xz"]), ("keep-newest", ["L1|cb", "L2|xaz"])])
    func storePairsFollowTheKeptCopy(policy: String, lists: [String]) throws {
        let folder = try TestPaths.temporaryFolder("duplicate-store-pairs")
        let bundle = try TestPaths.xcodeModelBundle("Lists", versions: [("Lists", Self.lists)], in: folder)
        var stores: [String] = []
        for (number, (entries, tagged)) in [(#"["c", "a", "b"]"#, "a"), (#"["x", "a", "z"]"#, "x")].enumerated() {
            try #"[{"title": "L\#(number + 1)", "entries": \#(entries)}]"#.write(toFile: folder + "/lists.json", atomically: true, encoding: .utf8)
            try #"[{"label": "red", "entries": ["\#(tagged)"]}]"#.write(toFile: folder + "/tags.json", atomically: true, encoding: .utf8)
            let store = folder + "/store\(number + 1).sqlite"
            var run = try FerryProcess.run(["import", folder + "/lists.json", "--model", bundle, "--entity", "List", "--link", "entries=name",
                                            "--out", store])
            #expect(run.status == 0, "\(run.err)")
            run = try FerryProcess.run(["import", folder + "/tags.json", "--model", bundle, "--entity", "Tag", "--link", "entries=name",
                                        "--out", store, "--append"])
            #expect(run.status == 0, "\(run.err)")
            stores.append(store)
        }
        let merged = folder + "/merged.sqlite"
        let run = try FerryProcess.run(["migrate"] + stores + ["--model", bundle, "--out", merged, "--on-duplicate", policy])
        #expect(run.status == 0 && !run.out.contains("claimed by several"), "\(run.out)\(run.err)")
        #expect(try storeRows(merged, """
            SELECT l.ZTITLE || '|' || group_concat(e.ZNAME, '') FROM (SELECT * FROM ZENTRY ORDER BY Z_FOK_LIST) e
            JOIN ZLIST l ON e.ZLIST = l.Z_PK GROUP BY l.ZTITLE ORDER BY l.ZTITLE
            """) == lists)
        #expect(try storeRows(merged, """
            SELECT e.ZNAME || '|' || t.ZLABEL FROM ZENTRY e JOIN Z_1TAGS j ON j.Z_1ENTRIES = e.Z_PK
            JOIN ZTAG t ON t.Z_PK = j.Z_3TAGS ORDER BY e.ZNAME
            """) == ["a|red", "x|red"])
        #expect(try storeRows(merged, "SELECT count(*) FROM ZTAG") == ["1"])
    }

    /// A record of an `--append` merged by keep-newest into a row the store held kept the row's
    /// old pairs besides its own (task 1 still held upload /u2 and tag b), exit 0, verified.
    @Test("under keep-newest a record merged into a stored row replaces the row's pairs of each relationship it gives; those it leaves out stay")
    func keepNewestReplacesStoredPairs() throws {
        let folder = try TestPaths.temporaryFolder("keep-newest-stored-pairs")
        let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"
        try (#"[{"remotePath": "/u1", "uploadID": "11111111-1111-1111-1111-111111111111"}, "#
            + #"{"remotePath": "/u2", "uploadID": "22222222-2222-2222-2222-222222222222"}]"#)
            .write(toFile: folder + "/u.json", atomically: true, encoding: .utf8)
        let store = folder + "/c.sqlite"
        var run = try FerryProcess.run(["import", folder + "/u.json", "--model", workspace, "--entity", "Upload", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        let pairs = """
            SELECT 'upload ' || ZREMOTEPATH || '→' || ifnull(ZTASK, '-') FROM ZUPLOAD
                UNION ALL SELECT 'tag ' || g.ZNAME || '→' || j.Z_2TASKS FROM Z_1TASKS j JOIN ZTAG g ON g.Z_PK = j.Z_1TAGS ORDER BY 1
            """
        let steps: [(json: String, entity: String, options: [String], expected: [String])] = [
            (#"[{"taskID": 1, "title": "one", "attachments": ["/u1", "/u2"], "tags": ["a", "b"]}]"#, "Task", ["--create-missing", "tags"],
             ["tag a→1", "tag b→1", "upload /u1→1", "upload /u2→1"]),
            (#"[{"taskID": 1, "title": "one v2", "attachments": ["/u1"], "tags": ["a"]}]"#, "Task", [],
             ["tag a→1", "upload /u1→1", "upload /u2→-"]),
            // Leaving a relationship out keeps its pairs; an empty list empties it.
            (#"[{"taskID": 1, "title": "one v3", "tags": []}]"#, "Task", [], ["upload /u1→1", "upload /u2→-"]),
            // A to-one given null is emptied too.
            (#"[{"remotePath": "/u1", "uploadID": "11111111-1111-1111-1111-111111111111", "task": null}]"#, "Upload", ["--key", "remotePath"],
             ["upload /u1→-", "upload /u2→-"]),
        ]
        for step in steps {
            try step.json.write(toFile: folder + "/step.json", atomically: true, encoding: .utf8)
            run = try FerryProcess.run(["import", folder + "/step.json", "--model", workspace, "--entity", step.entity, "--out", store, "--append",
                                        "--on-duplicate", "keep-newest"] + (step.entity == "Task" ? ["--link", "attachments=remotePath", "--link", "tags=name"] : [])
                                       + step.options)
            #expect(run.status == 0 && run.out.contains("verified"), "\(run.out)\(run.err)")
            #expect(try storeRows(store, pairs) == step.expected, "\(step.json)")
        }
        // Every run that changed a stored object raised its version once, as Core Data's save of a
        // changed object does: its values merged, a to-one set or cleared, a pair added or taken.
        let versions = try storeRows(store, """
            SELECT 'task ' || ZTITLE || ' ' || Z_OPT FROM ZTASK UNION ALL SELECT 'upload ' || ZREMOTEPATH || ' ' || Z_OPT FROM ZUPLOAD
                UNION ALL SELECT 'tag ' || ZNAME || ' ' || Z_OPT FROM ZTAG ORDER BY 1
            """)
        #expect(versions == ["tag a 3", "tag b 2", "task one v3 4", "upload /u1 4", "upload /u2 3"], "\(versions)")
    }

    /// A stored folder's list merged by keep-newest: the newest's order, the count Core Data
    /// derives, and a note whose required `folder` names the row (after the listed notes).
    @Test("a stored ordered list replaced by keep-newest takes the newest's members and order with its derived count; a destination whose required to-one names the row keeps it, counted (exit 1)")
    func keepNewestReplacesStoredListKeepingRequiredPairs() throws {
        let folder = try TestPaths.temporaryFolder("keep-newest-stored-list")
        let model = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Folder" syncable="YES"><attribute name="name" attributeType="String"/>
                    <attribute name="itemCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="items.@count"/>
                    <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>
                    <relationship name="notes" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                    <uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>
                </entity>
                <entity name="Item" syncable="YES"><attribute name="code" attributeType="String"/>
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>
                </entity>
                <entity name="Note" syncable="YES"><attribute name="text" attributeType="String"/>
                    <relationship name="folder" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
            </model>
            """
        let bundle = try TestPaths.xcodeModelBundle("Folders", versions: [("Folders", model)], in: folder)
        let files = [("i.json", #"[{"code": "a"}, {"code": "b"}, {"code": "c"}]"#), ("f1.json", #"[{"name": "F", "items": ["a", "b", "c"]}]"#),
                     ("n.json", #"[{"text": "n1", "folder": "F"}, {"text": "n2", "folder": "F"}]"#),
                     ("f2.json", #"[{"name": "F", "items": ["c", "a"], "notes": ["n2"]}]"#)]
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        let store = folder + "/s.sqlite"
        var run = try FerryProcess.run(["import", folder + "/i.json", "--model", bundle, "--entity", "Item", "--out", store])
        #expect(run.status == 0, "\(run.err)")
        for (file, entity, link) in [("f1.json", "Folder", "items=code"), ("n.json", "Note", "folder=name")] {
            run = try FerryProcess.run(["import", folder + "/" + file, "--model", bundle, "--entity", entity, "--out", store, "--append", "--link", link])
            #expect(run.status == 0, "\(run.out)\(run.err)")
        }
        run = try FerryProcess.run(["import", folder + "/f2.json", "--model", bundle, "--entity", "Folder", "--out", store, "--append",
                                    "--link", "items=code", "--link", "notes=text", "--on-duplicate", "keep-newest"])
        #expect(run.status == 1 && run.out.contains("verified")
                    && run.out.contains("1 of 1 links resolved, 1 stored pair the merged record left out kept (their 'folder' is required)"),
                "\(run.out)\(run.err)")
        #expect(try storeRows(store, "SELECT ZCODE FROM ZITEM WHERE ZFOLDER IS NOT NULL ORDER BY Z_FOK_FOLDER") == ["c", "a"])
        #expect(try storeRows(store, "SELECT ZCODE FROM ZITEM WHERE ZFOLDER IS NULL AND Z_FOK_FOLDER IS NULL") == ["b"])
        #expect(try storeRows(store, "SELECT ZITEMCOUNT FROM ZFOLDER") == ["2"])
        // The note kept comes after those the record lists, each at a place of its own.
        #expect(try storeRows(store, "SELECT ZTEXT || '→' || ifnull(ZFOLDER, '-') FROM ZNOTE ORDER BY Z_FOK_FOLDER") == ["n2→1", "n1→1"])
        #expect(try storeRows(store, "SELECT count(DISTINCT Z_FOK_FOLDER) FROM ZNOTE") == ["2"])
    }
}
