import Ferry
import FerryMigration
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Nested objects inside relationship keys of JSON and plist records become records of the
/// relationship's destination, written in the same run and linked to their carrier.
@Suite("nested objects in relationships: records found or created with their carrier")
struct NestedRecordImportTests {
    /// Items of products that each need a maker (a required to-one): a product a reference makes,
    /// named by its code only, lacks it.
    static let itemsOfMadeProducts = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
        + #"<entity name="Item" syncable="YES"><attribute name="qty" attributeType="Integer 32"/>"#
        + #"<relationship name="product" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="items" inverseEntity="Product"/></entity>"#
        + #"<entity name="Product" syncable="YES"><attribute name="code" attributeType="String"/>"#
        + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="product" inverseEntity="Item"/>"#
        + #"<relationship name="maker" maxCount="1" deletionRule="Nullify" destinationEntity="Maker" inverseName="products" inverseEntity="Maker"/>"#
        + #"<uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>"#
        + #"<entity name="Maker" syncable="YES"><attribute name="name" optional="YES" attributeType="String"/>"#
        + #"<relationship name="products" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Product" inverseName="maker" inverseEntity="Product"/></entity></model>"#

    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    private func write(_ text: String, _ name: String, in folder: String) throws -> String {
        let path = folder + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func importing(_ sources: [String], entity: String, out: String, model: String? = nil,
                           version: String? = "Workspace 3") -> ImportRequest {
        ImportRequest(sources: sources, modelPath: model ?? workspace, modelVersion: version, entity: entity, outputPath: out)
    }

    /// A bundle of one self-referential entity, `Task` (`parent` ⇄ `children`, ordered when
    /// asked), its records named by a unique `tid` or by a `title`.
    private func taskTree(in folder: String, ordered: Bool, uniqueID: Bool) throws -> String {
        let attribute = uniqueID ? #"<attribute name="tid" attributeType="Integer 64"/>"# : #"<attribute name="title" attributeType="String"/>"#
        let unique = uniqueID ? #"<uniquenessConstraints><uniquenessConstraint><constraint value="tid"/></uniquenessConstraint></uniquenessConstraints>"# : ""
        let task = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Task" syncable="YES">\#(attribute)"#
            + #"<relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="children" inverseEntity="Task"/>"#
            + #"<relationship name="children" optional="YES" toMany="YES" \#(ordered ? #"ordered="YES" "# : "")deletionRule="Nullify" destinationEntity="Task" inverseName="parent" inverseEntity="Task"/>"#
            + unique + "</entity></model>"
        return try TestPaths.xcodeModelBundle("Tasks", versions: [("Tasks", task)], in: folder)
    }

    private func uuid(_ number: Int) -> String { "00000000-0000-0000-0000-\(String(repeating: "0", count: 11))\(number % 10)" }

    @Test("ferry import of tasks with nested attachments (to-many) and tags (many-to-many, unique name): linked, deduplicated, verified")
    func tasksWithAttachmentsAndTags() throws {
        let folder = try TestPaths.temporaryFolder("nested-tasks")
        let source = try write("""
            {"taskID": 1, "title": "Trip", "attachments": [{"remotePath": "/a.jpg", "uploadID": "\(uuid(1))"}, {"remotePath": "/b.jpg", "uploadID": "\(uuid(2))"}], "tags": [{"name": "work"}, {"name": "home"}]}
            {"taskID": 2, "title": "Report", "tags": [{"name": "work"}], "attachments": []}
            {"taskID": 3, "title": "Bare", "tags": null}

            """, "tasks.ndjson", in: folder)
        let out = folder + "/W3.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Task", out: out)).run()
        #expect(summary.read == 3 && summary.written == 3 && summary.rejected == 0 && summary.isBalanced)
        #expect(summary.carried["Upload"] == .init(written: 2, merged: 0))
        #expect(summary.carried["Tag"] == .init(written: 2, merged: 1))
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZNAME FROM ZTAG ORDER BY ZNAME") == ["home", "work"])
        #expect(try storeRows(out, "SELECT u.ZREMOTEPATH, t.ZTASKID FROM ZUPLOAD u JOIN ZTASK t ON u.ZTASK = t.Z_PK ORDER BY 1")
            == ["/a.jpg|1", "/b.jpg|1"])
        #expect(try storeRows(out, """
            SELECT t.ZTASKID, g.ZNAME FROM Z_1TASKS j JOIN ZTASK t ON t.Z_PK = j.Z_2TASKS JOIN ZTAG g ON g.Z_PK = j.Z_1TAGS ORDER BY 1, 2
            """) == ["1|home", "1|work", "2|work"])
    }

    @Test("objects nested two levels down are written once, linked to their carrier, by import and by migrate (a grandchild was written twice, exit 0, verified)")
    func nestedTwoLevels() throws {
        let folder = try TestPaths.temporaryFolder("nested-two-levels")
        let bundle = try taskTree(in: folder, ordered: false, uniqueID: false)
        let source = try write(#"[{"title": "r", "children": [{"title": "c", "children": [{"title": "g"}, {"title": "h"}]}]}]"#, "tasks.json", in: folder)
        let parents = "SELECT t.ZTITLE, coalesce(p.ZTITLE, '-') FROM ZTASK t LEFT JOIN ZTASK p ON p.Z_PK = t.ZPARENT ORDER BY t.ZTITLE"
        let imported = folder + "/imported.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Task", out: imported, model: bundle, version: nil)).run()
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(imported, parents) == ["c|r", "g|c", "h|c", "r|-"])
        let migrated = folder + "/migrated.sqlite"
        let run = try MigrateJob(request: MigrateRequest(sources: [MigrationSource(argument: "Task:\(source)")], modelPath: bundle,
                                                         outputPath: migrated)).run()
        #expect(run.verification?.passed == true, "\(String(describing: run.verification))")
        #expect(try storeRows(migrated, parents) == ["c|r", "g|c", "h|c", "r|-"])
    }

    @Test("an ordered list naming a member twice keeps it once, at its first place, and says so (it took the last place, exit 0)")
    func orderedListNamingAMemberTwice() throws {
        let folder = try TestPaths.temporaryFolder("ordered-twice")
        let bundle = try taskTree(in: folder, ordered: true, uniqueID: true)
        let source = try write("{\"tid\": 5}\n{\"tid\": 6}\n{\"tid\": 1, \"children\": [5, 6, 5]}\n", "tasks.ndjson", in: folder)
        let out = folder + "/out.sqlite"
        var request = importing([source], entity: "Task", out: out, model: bundle, version: nil)
        request.files.linkAttributes = ["children": "tid"]
        let summary = try ImportJob(request: request).run()
        #expect(summary.verification?.passed == true)
        let children = try #require(summary.links.first { $0.relationship == "Task.children" })
        #expect(children.duplicatePairs == 1, "\(children)")
        #expect(try storeRows(out, "SELECT ZTID FROM ZTASK WHERE ZPARENT IS NOT NULL ORDER BY Z_FOK_PARENT") == ["5", "6"])
    }

    @Test("tags listed by name in a nested record are created as for a top record (they were never created, exit 0, verified)")
    func nestedRecordsCreateMissingDestinations() throws {
        let folder = try TestPaths.temporaryFolder("nested-create")
        let source = try write("""
            [{"remotePath": "/a.jpg", "uploadID": "\(uuid(1))", "task": {"taskID": 7, "title": "Trip", "tags": ["work", "home"]}}]
            """, "uploads.json", in: folder)
        let out = folder + "/W3.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Upload", out: out)).run()
        #expect(summary.written == 1 && summary.verification?.passed == true)
        #expect(try storeRows(out, """
            SELECT t.ZTASKID, g.ZNAME FROM Z_1TASKS j JOIN ZTASK t ON t.Z_PK = j.Z_2TASKS JOIN ZTAG g ON g.Z_PK = j.Z_1TAGS ORDER BY 2
            """) == ["7|home", "7|work"])
        // A relationship named without its entity is every entity's of that name.
        var request = importing([source], entity: "Upload", out: folder + "/named.sqlite")
        request.createMissing = ["tags"]
        _ = try ImportJob(request: request).run()
        #expect(try storeRows(folder + "/named.sqlite", "SELECT count(*) FROM Z_1TASKS") == ["2"])
    }

    @Test("a nested to-one object: one Task per taskID (unique), keep first by default, keep newest when asked, also against the store")
    func nestedToOneAgainstStore() throws {
        let folder = try TestPaths.temporaryFolder("nested-to-one")
        let out = folder + "/W3.sqlite"
        let tasks = try write("{\"taskID\": 7, \"title\": \"old\"}\n", "tasks.ndjson", in: folder)
        #expect(try ImportJob(request: importing([tasks], entity: "Task", out: out)).run().written == 1)
        let uploads = try write("""
            [{"remotePath": "/a.jpg", "uploadID": "\(uuid(1))", "task": {"taskID": 7, "title": "new"}},
             {"remotePath": "/b.jpg", "uploadID": "\(uuid(2))", "task": {"taskID": 8, "title": "eight"}},
             {"remotePath": "/c.jpg", "uploadID": "\(uuid(3))", "task": {"taskID": 8, "title": "eight again"}}]
            """, "uploads.json", in: folder)
        var request = importing([uploads], entity: "Upload", out: out)
        request.existingStore = .append
        let first = try ImportJob(request: request).run()
        #expect(first.written == 3 && first.carried["Task"] == .init(written: 1, merged: 2))
        #expect(first.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZTASKID, ZTITLE FROM ZTASK ORDER BY 1") == ["7|old", "8|eight"])
        #expect(try storeRows(out, "SELECT u.ZREMOTEPATH, t.ZTASKID FROM ZUPLOAD u JOIN ZTASK t ON u.ZTASK = t.Z_PK ORDER BY 1")
            == ["/a.jpg|7", "/b.jpg|8", "/c.jpg|8"])

        let newer = try write("[{\"remotePath\": \"/d.jpg\", \"uploadID\": \"\(uuid(4))\", \"task\": {\"taskID\": 7, \"title\": \"new\"}}]",
                              "newer.json", in: folder)
        request.sources = [newer]
        request.duplicates = .keepNewest
        #expect(try ImportJob(request: request).run().carried["Task"] == .init(written: 0, merged: 1))
        #expect(try storeRows(out, "SELECT ZTASKID, ZTITLE FROM ZTASK ORDER BY 1") == ["7|new", "8|eight"])
    }

    @Test("a failing nested object rejects its carrier with the key path, and nothing of the carrier is written")
    func nestedFailureRejectsCarrier() throws {
        let folder = try TestPaths.temporaryFolder("nested-failure")
        let source = try write("""
            {"taskID": 1, "title": "ok", "attachments": [{"remotePath": "/a.jpg", "uploadID": "\(uuid(1))"}]}
            {"taskID": 2, "title": "bad", "tags": [{"name": "t2"}], "attachments": [{"remotePath": "/b.jpg", "uploadID": "\(uuid(2))"}, {"remotePath": "/c.jpg", "byteCount": "many", "uploadID": "\(uuid(3))"}]}
            {"taskID": 3, "title": "missing", "attachments": [{"remotePath": "/d.jpg"}]}
            {"taskID": 4, "title": "mixed", "tags": [{"name": "x"}, "y"]}

            """, "tasks.json", in: folder)
        let out = folder + "/W3.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Task", out: out)).run()
        #expect(summary.written == 1 && summary.rejected == 3 && summary.isBalanced)
        #expect(summary.verification?.passed == true)
        let rejects = summary.sampleRejects
        #expect(rejects.map { "\($0.location.line ?? 0) \($0.location.path ?? "")" } == [
            "2 attachments[1].byteCount", "3 attachments[0].uploadID", "4 ",
        ])
        #expect(rejects.first?.location.description.hasSuffix("tasks.json:2 attachments[1].byteCount") == true)
        #expect(rejects.first?.entity == "Upload" && rejects.first?.value == "many")
        #expect(rejects.last?.attribute == "tags" && rejects.last?.reason.contains("not both") == true)
        #expect(summary.carried["Upload"] == .init(written: 1, merged: 0) && summary.carried["Tag"] == nil)
        #expect(try storeRows(out, "SELECT ZREMOTEPATH FROM ZUPLOAD") == ["/a.jpg"])
        #expect(try storeRows(out, "SELECT count(*) FROM ZTAG") == ["0"])
    }

    @Test("a record that fails when it is written (a model bound, a bound of an object it carries) writes nothing it carries (orphans and a merge stayed, exit 1, verified); a descendant that repeats the record is the record, its items the record's")
    func rejectedAtWriteWritesNothingCarried() throws {
        let folder = try TestPaths.temporaryFolder("nested-rejected-at-write")
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Order" syncable="YES"><attribute name="num" attributeType="Integer 64" maxValueString="100"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="order" inverseEntity="Item"/>"#
            + #"<relationship name="sub" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="num"/></uniquenessConstraint></uniquenessConstraints></entity>"#
            + #"<entity name="Item" syncable="YES"><attribute name="qty" attributeType="Integer 32" maxValueString="5"/>"#
            + #"<relationship name="order" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="items" inverseEntity="Order"/>"#
            + #"<relationship name="product" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="items" inverseEntity="Product"/></entity>"#
            + #"<entity name="Product" syncable="YES"><attribute name="code" attributeType="String"/><attribute name="title" optional="YES" attributeType="String"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="product" inverseEntity="Item"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Orders", versions: [("Orders", model)], in: folder)
        let source = try write("""
            [{"num": 1, "items": [{"qty": 1, "product": {"code": "P1", "title": "good"}}]},
             {"num": 500, "items": [{"qty": 2, "product": {"code": "P1", "title": "bad"}}]},
             {"num": 2, "items": [{"qty": 3}, {"qty": 9}]},
             {"num": 3, "sub": {"num": 3, "items": [{"qty": 4}]}}]
            """, "orders.json", in: folder)
        let out = folder + "/out.sqlite"
        var request = importing([source], entity: "Order", out: out, model: bundle, version: nil)
        request.duplicates = .keepNewest
        let summary = try ImportJob(request: request).run()
        #expect(summary.written == 2 && summary.merged == 0 && summary.rejected == 2 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true)
        // Order 3's nested copy of itself is order 3: its `sub` names order 3, and the copy's items are order 3's.
        #expect(try storeRows(out, "SELECT o.ZNUM, s.ZNUM, i.ZQTY FROM ZORDER o JOIN ZORDER s ON s.Z_PK = o.ZSUB JOIN ZITEM i ON i.ZORDER = o.Z_PK")
                == ["3|3|4"])
        #expect(summary.sampleRejects.map(\.reason).contains { $0.contains("[2].items[1]: Item.qty: 9 is above the model's maximum of 5") },
                "\(summary.sampleRejects)")
        #expect(try storeRows(out, "SELECT ZQTY FROM ZITEM ORDER BY 1") == ["1", "4"])
        #expect(try storeRows(out, "SELECT ZCODE, ZTITLE FROM ZPRODUCT") == ["P1|good"])
        var rejecting = importing([source], entity: "Order", out: folder + "/reject.sqlite", model: bundle, version: nil)
        rejecting.duplicates = .reject
        let strict = try ImportJob(request: rejecting).run()
        #expect(strict.written == 2 && strict.rejected == 2, "\(strict.sampleRejects)")
        #expect(try storeRows(folder + "/reject.sqlite", "SELECT ZNUM FROM ZORDER ORDER BY 1") == ["1", "3"])
        #expect(try storeRows(folder + "/reject.sqlite", "SELECT ZQTY FROM ZITEM ORDER BY 1") == ["1", "4"])
    }

    /// A bundle of `Customer` ⇄ `Order` (its `customer` required) ⇄ `Item` (cascaded from the
    /// order, or with `itemsRule`) ⇄ `Product` (unique `code`), with `favorite` an order's required
    /// to-one to a `Product`, with `uniqueNumbers` a uniqueness constraint on `Order.num`; and a
    /// store holding the customer `Ann`.
    private func ordersOfCustomers(in folder: String, favorite: Bool = false, uniqueNumbers: Bool = false,
                                   itemsRule: String = "Cascade") throws -> (bundle: String, store: String) {
        let uniqueNumber = uniqueNumbers
            ? #"<uniquenessConstraints><uniquenessConstraint><constraint value="num"/></uniquenessConstraint></uniquenessConstraints>"# : ""
        let favoriteOfOrder = favorite
            ? #"<relationship name="favorite" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="fans" inverseEntity="Product"/>"# : ""
        let fans = favorite
            ? #"<relationship name="fans" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Order" inverseName="favorite" inverseEntity="Order"/>"# : ""
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Customer" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="orders" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Order" inverseName="customer" inverseEntity="Order"/></entity>"#
            + #"<entity name="Order" syncable="YES"><attribute name="num" attributeType="Integer 64"/>"#
            + #"<relationship name="customer" maxCount="1" deletionRule="Nullify" destinationEntity="Customer" inverseName="orders" inverseEntity="Customer"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="\#(itemsRule)" destinationEntity="Item" inverseName="order" inverseEntity="Item"/>"#
            + favoriteOfOrder + uniqueNumber + "</entity>"
            + #"<entity name="Item" syncable="YES"><attribute name="qty" attributeType="Integer 32"/>"#
            + #"<relationship name="order" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="items" inverseEntity="Order"/>"#
            + #"<relationship name="product" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="items" inverseEntity="Product"/></entity>"#
            + #"<entity name="Product" syncable="YES"><attribute name="code" attributeType="String"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="product" inverseEntity="Item"/>"#
            + fans + #"<uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Orders", versions: [("Orders", model)], in: folder)
        let store = folder + "/out.sqlite"
        let customers = try write("name\nAnn\n", "customers.csv", in: folder)
        #expect(try ImportJob(request: importing([customers], entity: "Customer", out: store, model: bundle, version: nil)).run().written == 1)
        return (bundle, store)
    }

    /// Imports the orders of `json` into `store` (of `ordersOfCustomers`) with `--append`, their
    /// relationships found by the attributes `links` names, under `policy`.
    private func appendOrders(_ json: String, to store: String, bundle: String, in folder: String,
                              links: [String: String] = ["customer": "name"], policy: DuplicatePolicy = .reject) throws -> ImportSummary {
        var request = importing([try write(json, "orders.json", in: folder)], entity: "Order", out: store, model: bundle, version: nil)
        request.existingStore = .append
        request.files.linkAttributes = links
        request.duplicates = policy
        return try ImportJob(request: request).run()
    }

    @Test("a carrier removed when its required to-one finds nothing takes the objects it brought along, and spares those another carrier merged into (they stayed as orphans, exit 1, verified)")
    func carrierRemovedAtLinkResolutionTakesItsCarriedRows() throws {
        let folder = try TestPaths.temporaryFolder("nested-carrier-removed")
        let (bundle, out) = try ordersOfCustomers(in: folder)
        let summary = try appendOrders("""
            [{"num": 1, "customer": "Ann", "items": [{"qty": 1, "product": {"code": "P1"}}, {"qty": 2, "product": {"code": "P2"}}]},
             {"num": 2, "customer": "Bob", "items": [{"qty": 3, "product": {"code": "P1"}}, {"qty": 4, "product": {"code": "P3"}}, {"qty": 5, "product": {"code": "P3"}}]},
             {"num": 3, "customer": "Ann", "items": [{"qty": 6, "product": {"code": "P2"}}]}]
            """, to: out, bundle: bundle, in: folder)
        #expect(summary.written == 2 && summary.rejected == 1 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        // Order 2's own items and its P3 go with it; P1, which order 2 found, was order 1's.
        #expect(try storeRows(out, "SELECT i.ZQTY, p.ZCODE FROM ZITEM i JOIN ZPRODUCT p ON p.Z_PK = i.ZPRODUCT ORDER BY 1") == ["1|P1", "2|P2", "6|P2"])
        #expect(try storeRows(out, "SELECT ZCODE FROM ZPRODUCT ORDER BY 1") == ["P1", "P2"])
        // What order 2 carried goes with its reject, as when a carrier is rejected as it is written.
        #expect(summary.carried["Item"] == .init(written: 3, merged: 0), "\(summary.carried)")
        #expect(summary.carried["Product"] == .init(written: 2, merged: 1), "\(summary.carried)")
        let items = try #require(summary.ledgers.first { $0.entity == "Item" })
        #expect(items.read == 3 && items.written == 3 && items.rejected == 0, "\(items)")
        let products = try #require(summary.ledgers.first { $0.entity == "Product" })
        #expect(products.read == 3 && products.written == 2 && products.merged == 1, "\(products)")
        #expect(summary.links.first { $0.relationship == "Order.customer" }?.carriedRecordsRemoved == 4, "\(summary.links)")
    }

    @Test("an object that only removed carriers held goes with the last of them, and one a kept carrier also found passes to it (it stayed as an orphan, counted written, exit 1)")
    func objectsHeldOnlyByRemovedCarriersGo() throws {
        let folder = try TestPaths.temporaryFolder("nested-carriers-removed-together")
        let (bundle, out) = try ordersOfCustomers(in: folder)
        let summary = try appendOrders("""
            [{"num": 1, "customer": "Ann", "items": [{"qty": 1, "product": {"code": "P1"}}]},
             {"num": 2, "customer": "Bob", "items": [{"qty": 2, "product": {"code": "P3"}}]},
             {"num": 3, "customer": "Cid", "items": [{"qty": 3, "product": {"code": "P3"}}]},
             {"num": 4, "customer": "Dan", "items": [{"qty": 4, "product": {"code": "P4"}}]},
             {"num": 5, "customer": "Ann", "items": [{"qty": 5, "product": {"code": "P4"}}]}]
            """, to: out, bundle: bundle, in: folder)
        #expect(summary.written == 2 && summary.rejected == 3 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(try storeRows(out, "SELECT i.ZQTY, p.ZCODE FROM ZITEM i JOIN ZPRODUCT p ON p.Z_PK = i.ZPRODUCT ORDER BY 1") == ["1|P1", "5|P4"])
        #expect(try storeRows(out, "SELECT ZCODE FROM ZPRODUCT ORDER BY 1") == ["P1", "P4"])
        let products = try #require(summary.ledgers.first { $0.entity == "Product" })
        #expect(products.read == 2 && products.written == 2 && products.merged == 0, "\(products)")
        #expect(summary.carried["Product"] == .init(written: 2, merged: 0), "\(summary.carried)")
    }

    @Test("a nested object whose required link finds nothing rejects its carrier at the end, with what the carrier brought (the whole run failed verification, exit 5)")
    func nestedRequiredLinkRejectsItsCarrier() throws {
        let folder = try TestPaths.temporaryFolder("nested-required-link")
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Maker" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="products" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Product" inverseName="maker" inverseEntity="Product"/></entity>"#
            + #"<entity name="Order" syncable="YES"><attribute name="num" attributeType="Integer 64"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="order" inverseEntity="Item"/></entity>"#
            + #"<entity name="Item" syncable="YES"><attribute name="qty" attributeType="Integer 32"/>"#
            + #"<relationship name="order" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="items" inverseEntity="Order"/>"#
            + #"<relationship name="product" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="items" inverseEntity="Product"/></entity>"#
            + #"<entity name="Product" syncable="YES"><attribute name="code" attributeType="String"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="product" inverseEntity="Item"/>"#
            + #"<relationship name="maker" maxCount="1" deletionRule="Nullify" destinationEntity="Maker" inverseName="products" inverseEntity="Maker"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Makers", versions: [("Makers", model)], in: folder)
        let out = folder + "/out.sqlite"
        let makers = try write("name\nAcme\n", "makers.csv", in: folder)
        #expect(try ImportJob(request: importing([makers], entity: "Maker", out: out, model: bundle, version: nil)).run().written == 1)
        let summary = try appendOrders("""
            [{"num": 1, "items": [{"qty": 1, "product": {"code": "P1", "maker": "Acme"}}]},
             {"num": 2, "items": [{"qty": 2, "product": {"code": "PX", "maker": "Nowhere"}}, {"qty": 3, "product": {"code": "P1"}}]},
             {"num": 3, "items": [{"qty": 4, "product": {"code": "P1"}}]}]
            """, to: out, bundle: bundle, in: folder, links: ["maker": "name"])
        #expect(summary.written == 2 && summary.rejected == 1 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(try storeRows(out, "SELECT o.ZNUM, i.ZQTY, p.ZCODE FROM ZITEM i JOIN ZORDER o ON o.Z_PK = i.ZORDER JOIN ZPRODUCT p ON p.Z_PK = i.ZPRODUCT ORDER BY 2")
                == ["1|1|P1", "3|4|P1"])
        #expect(try storeRows(out, "SELECT ZCODE FROM ZPRODUCT") == ["P1"])
        #expect(summary.carried["Product"] == .init(written: 1, merged: 1) && summary.carried["Item"] == .init(written: 2, merged: 0),
                "\(summary.carried)")
        let maker = try #require(summary.links.first { $0.relationship == "Product.maker" })
        #expect(maker.rejectedRecords == 1 && maker.carriedRecordsRemoved == 3, "\(maker)")
    }

    @Test("a required link to an object a removed carrier made finds nothing: the carrier goes first, and the object is made anew (the link named a removed row)")
    func linksToWhatARemovedCarrierMadeResolveAfterIt() throws {
        let folder = try TestPaths.temporaryFolder("nested-carrier-removed-first")
        let (bundle, out) = try ordersOfCustomers(in: folder, favorite: true)
        // `favorite` is given before `customer`, so its links are staged first.
        let summary = try appendOrders("""
            [{"num": 1, "favorite": "P1", "customer": "Ann", "items": [{"qty": 1, "product": {"code": "P1"}}]},
             {"num": 2, "favorite": "P1", "customer": "Bob", "items": [{"qty": 2, "product": {"code": "P3"}}]},
             {"num": 3, "favorite": "P3", "customer": "Ann", "items": [{"qty": 3, "product": {"code": "P1"}}]}]
            """, to: out, bundle: bundle, in: folder, links: ["customer": "name", "favorite": "code"])
        #expect(summary.written == 2 && summary.rejected == 1 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(try storeRows(out, "SELECT o.ZNUM, p.ZCODE FROM ZORDER o JOIN ZPRODUCT p ON p.Z_PK = o.ZFAVORITE ORDER BY 1") == ["1|P1", "3|P3"])
        #expect(try storeRows(out, "SELECT count(*) FROM ZITEM") == ["2"])
        #expect(summary.links.first { $0.relationship == "Order.favorite" }?.created == 1, "\(summary.links)")
    }

    @Test("a copy a duplicate policy does not keep takes the objects its Cascade relationships hold: a later copy's under keep-first, the earlier copies' under keep-newest (they stayed as orphans, exit 0, verified)",
          arguments: [("keep-first", DuplicatePolicy.keepFirst, ["1|1|P1", "4|2|P2"], 2), ("keep-newest", .keepNewest, ["2|1|P2", "3|1|P1", "4|2|P2"], 1)])
    func copiesNotKeptTakeWhatTheyOwn(name: String, policy: DuplicatePolicy, items: [String], dropped: Int) throws {
        let folder = try TestPaths.temporaryFolder("nested-copies-\(name)")
        let (bundle, out) = try ordersOfCustomers(in: folder, uniqueNumbers: true)
        // The last copy of order 1 gives no items: under keep-newest the second copy's stay.
        let summary = try appendOrders("""
            [{"num": 1, "customer": "Ann", "items": [{"qty": 1, "product": {"code": "P1"}}]},
             {"num": 1, "customer": "Ann", "items": [{"qty": 2, "product": {"code": "P2"}}, {"qty": 3, "product": {"code": "P1"}}]},
             {"num": 2, "customer": "Ann", "items": [{"qty": 4, "product": {"code": "P2"}}]},
             {"num": 1, "customer": "Ann"}]
            """, to: out, bundle: bundle, in: folder, policy: policy)
        #expect(summary.written == 2 && summary.merged == 2 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(try storeRows(out, "SELECT i.ZQTY, o.ZNUM, p.ZCODE FROM ZITEM i LEFT JOIN ZORDER o ON o.Z_PK = i.ZORDER JOIN ZPRODUCT p ON p.Z_PK = i.ZPRODUCT ORDER BY 1")
                == items)
        // P2, which a dropped copy's item made, stays: order 2's item found it, and no Cascade holds it.
        #expect(try storeRows(out, "SELECT ZCODE FROM ZPRODUCT ORDER BY 1") == ["P1", "P2"])
        #expect(summary.carried["Item"] == .init(written: 4 - dropped, merged: 0, droppedWithCopies: dropped), "\(summary.carried)")
        let ledger = try #require(summary.ledgers.first { $0.entity == "Item" })
        #expect(ledger.read == 4 && ledger.written == 4 - dropped && ledger.merged == dropped, "\(ledger)")
    }

    @Test("a copy not kept leaves the objects a Nullify relationship holds, as Core Data's delete does: unlinked")
    func copiesNotKeptLeaveWhatTheyDoNotOwn() throws {
        let folder = try TestPaths.temporaryFolder("nested-copies-nullify")
        let (bundle, out) = try ordersOfCustomers(in: folder, uniqueNumbers: true, itemsRule: "Nullify")
        let summary = try appendOrders("""
            [{"num": 1, "customer": "Ann", "items": [{"qty": 1}]}, {"num": 1, "customer": "Ann", "items": [{"qty": 2}]}]
            """, to: out, bundle: bundle, in: folder, policy: .keepFirst)
        #expect(summary.written == 1 && summary.merged == 1 && summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT ZQTY, ifnull(ZORDER, '-') FROM ZITEM ORDER BY 1") == ["1|1", "2|-"])
        #expect(summary.carried["Item"] == .init(written: 2, merged: 0))
    }

    /// A bundle of `Task` (unique `tid`, a `title`; `parent` ⇄ `children`, Cascade) and its
    /// many-to-many `tags` ⇄ `Tag.tasks` (unique `name`).
    private func tasksWithTags(in folder: String) throws -> String {
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Task" syncable="YES"><attribute name="tid" attributeType="Integer 64"/><attribute name="title" optional="YES" attributeType="String"/>"#
            + #"<relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Task" inverseName="children" inverseEntity="Task"/>"#
            + #"<relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="parent" inverseEntity="Task"/>"#
            + #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="tasks" inverseEntity="Tag"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="tid"/></uniquenessConstraint></uniquenessConstraints></entity>"#
            + #"<entity name="Tag" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="tags" inverseEntity="Task"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        return try TestPaths.xcodeModelBundle("Tasks", versions: [("Tasks", model)], in: folder)
    }

    /// Imports `json` as tasks of `tasksWithTags` under `policy`, in a folder named after `name`.
    private func importTasks(_ json: String, policy: DuplicatePolicy = .reject, folder name: String) throws -> (summary: ImportSummary, store: String) {
        let folder = try TestPaths.temporaryFolder(name)
        let bundle = try tasksWithTags(in: folder)
        let source = try write(json, "tasks.json", in: folder)
        var request = importing([source], entity: "Task", out: folder + "/out.sqlite", model: bundle, version: nil)
        request.duplicates = policy
        return (try ImportJob(request: request).run(), folder + "/out.sqlite")
    }

    /// Each task of a `tasksWithTags` store as `tid|title|parent's tid` (`-` for none), by tid.
    private func tasksAndParents(_ store: String) throws -> [String] {
        try storeRows(store, "SELECT t.ZTID, ifnull(t.ZTITLE, '-'), ifnull(p.ZTID, '-') FROM ZTASK t LEFT JOIN ZTASK p ON p.Z_PK = t.ZPARENT ORDER BY 1")
    }

    /// Each pair of a `tasksWithTags` store's tags and tasks as `name|tid`.
    private func tagsOfTasks(_ store: String) throws -> [String] {
        try storeRows(store, "SELECT g.ZNAME, t.ZTID FROM Z_1TASKS j JOIN ZTAG g ON g.Z_PK = j.Z_1TAGS JOIN ZTASK t ON t.Z_PK = j.Z_2TASKS ORDER BY 1, 2")
    }

    @Test("a record mentioned inside itself (a child's parent, a tag's tasks) is that record: it keeps its values, tags and children under every policy (keep-first dropped them, reject refused the record, exit 0 and 1)",
          arguments: [DuplicatePolicy.reject, .keepFirst, .keepNewest])
    func mentionOfTheCarrierIsTheCarrier(policy: DuplicatePolicy) throws {
        let (summary, out) = try importTasks("""
            [{"tid": 1, "title": "top", "tags": [{"name": "work", "tasks": [{"tid": 1, "title": "echo"}]}],
              "children": [{"tid": 2, "title": "kid", "parent": {"tid": 1, "title": "top"}}, {"tid": 3, "title": "kid2"}]}]
            """, policy: policy, folder: "nested-mention-\(policy)")
        #expect(summary.written == 1 && summary.rejected == 0 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(try tasksAndParents(out) == ["1|top|-", "2|kid|1", "3|kid2|1"])
        #expect(try tagsOfTasks(out) == ["work|1"])
        #expect(summary.carried["Task"] == .init(written: 2, merged: 2), "\(summary.carried)")
    }

    @Test("a nested copy of its carrier that gives relationships is the carrier too: the carrier keeps its values and children, and takes the relationships only the copy gives (keep-first lost the carrier's children and title, exit 0)",
          arguments: [DuplicatePolicy.reject, .keepFirst, .keepNewest])
    func copyOfTheCarrierWithRelationships(policy: DuplicatePolicy) throws {
        let (summary, out) = try importTasks("""
            [{"tid": 1, "title": "top", "children": [{"tid": 2, "title": "c2",
              "children": [{"tid": 3, "title": "c3", "parent": {"tid": 1, "title": "x", "tags": [{"name": "t"}]}}]}]}]
            """, policy: policy, folder: "nested-mention-links-\(policy)")
        #expect(summary.written == 1 && summary.rejected == 0 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        // Task 3 names task 1 as its parent; the carrier's own children (task 2) win over that.
        #expect(try tasksAndParents(out) == ["1|top|-", "2|c2|1", "3|c3|2"])
        #expect(try tagsOfTasks(out) == ["t|1"])
    }

    @Test("under keep-first a record that merges into an object a copy not kept made is that object's first: its values stand (the dropped copy's did, exit 0)")
    func recordFillsWhatADroppedCopyMade() throws {
        let (summary, out) = try importTasks("""
            [{"tid": 1, "title": "first"}, {"tid": 1, "title": "second", "children": [{"tid": 3, "title": "three-nested"}, {"tid": 4, "title": "four"}]},
             {"tid": 3, "title": "three-top"}]
            """, policy: .keepFirst, folder: "nested-dropped-then-record")
        #expect(summary.rejected == 0 && summary.isBalanced && summary.verification?.passed == true, "\(summary.sampleRejects)")
        // Task 4, which only the dropped copy held (Cascade), goes with it; task 3 is the top record's.
        #expect(try tasksAndParents(out) == ["1|first|-", "3|three-top|-"])
    }

    @Test("a nested reference to a record of the files that no record fills names nothing: its link is unresolved, no empty stand-in is written (one was, exit 0)")
    func unfilledReferenceToTheFilesEntityIsUnresolved() throws {
        let (summary, out) = try importTasks(#"[{"tid": 1, "title": "a"}, {"tid": 2, "parent": {"tid": 97}}, {"tid": 3, "parent": {"tid": 1}}]"#,
                                             folder: "nested-unfilled-reference")
        #expect(summary.written == 3 && summary.isBalanced && summary.verification?.passed == true, "\(summary.sampleRejects)")
        #expect(summary.leftSomethingOut && LinkReport.unresolved(in: summary.links) == 1, "\(summary.links)")
        #expect(try tasksAndParents(out) == ["1|a|-", "2|-|-", "3|-|1"])
        // The reference to task 1 counts as merged; the one to task 97 was a link, and is not counted.
        #expect(summary.carried["Task"] == .init(written: 0, merged: 1), "\(summary.carried)")
        let tasks = try #require(summary.ledgers.first { $0.entity == "Task" })
        #expect(tasks.read == 4 && tasks.written == 3 && tasks.merged == 1, "\(tasks)")
    }

    @Test("a record an earlier record's nested reference made fills that object under every policy (under reject it was rejected as a duplicate of the reference, exit 1; under keep-newest the filled object was then removed as unfilled)",
          arguments: [DuplicatePolicy.reject, .keepFirst, .keepNewest])
    func fullRecordFillsWhatAReferenceMade(policy: DuplicatePolicy) throws {
        let (summary, out) = try importTasks("""
            [{"tid": 1, "title": "one", "children": [{"tid": 2}]}, {"tid": 2, "title": "two", "tags": [{"name": "z"}]}]
            """, policy: policy, folder: "nested-reference-then-record-\(policy)")
        #expect(summary.rejected == 0 && summary.written + summary.merged == 2 && summary.isBalanced, "\(summary.sampleRejects)")
        #expect(summary.verification?.passed == true)
        #expect(try tasksAndParents(out) == ["1|one|-", "2|two|1"])
        #expect(try tagsOfTasks(out) == ["z|2"])
    }

    @Test("a run whose store is not kept says nothing was written when there was no store before (it said the new path 'is as it was')")
    func discardedNewStoreSaysNothingWasWritten() throws {
        let folder = try TestPaths.temporaryFolder("nested-discarded-new")
        let bundle = try TestPaths.xcodeModelBundle("Items", versions: [("Items", Self.itemsOfMadeProducts)], in: folder)
        // A reference makes a Product that lacks its required maker: the run fails verification.
        let source = try write(#"[{"qty": 1, "product": {"code": "P2"}}]"#, "items.json", in: folder)
        let out = folder + "/new.sqlite"
        let run = try FerryProcess.run(["import", source, "--model", bundle, "--entity", "Item", "--out", out])
        #expect(run.status == 5, "\(run.out)\(run.err)")
        #expect(run.out.contains("nothing was written to \(out)") && !run.out.contains("is as it was"), "\(run.out)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("a nested object without a destination its entity requires rejects its carrier; the inverse its carrier fills counts (the run failed verification, exit 5)")
    func nestedObjectMissingARequiredToOne() throws {
        let folder = try TestPaths.temporaryFolder("nested-required")
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Order" syncable="YES"><attribute name="num" attributeType="Integer 64"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="order" inverseEntity="Item"/></entity>"#
            + #"<entity name="Item" syncable="YES"><attribute name="qty" attributeType="Integer 32"/>"#
            + #"<relationship name="order" maxCount="1" deletionRule="Nullify" destinationEntity="Order" inverseName="items" inverseEntity="Order"/>"#
            + #"<relationship name="product" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="items" inverseEntity="Product"/></entity>"#
            + #"<entity name="Product" syncable="YES"><attribute name="code" attributeType="String"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="product" inverseEntity="Item"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Orders", versions: [("Orders", model)], in: folder)
        let source = try write(#"[{"num": 1, "items": [{"qty": 1}]}, {"num": 2, "items": [{"qty": 1, "product": {"code": "P"}}]}, {"num": 3, "items": [{"qty": 2, "product": null}]}]"#,
                               "orders.json", in: folder)
        let out = folder + "/out.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Order", out: out, model: bundle, version: nil)).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(summary.written == 1 && summary.rejected == 2 && summary.isBalanced)
        #expect(summary.sampleRejects.map(\.reason).allSatisfy { $0.contains("items[0]: Item: required relationship 'product' is empty") },
                "\(summary.sampleRejects)")
        #expect(try storeRows(out, "SELECT o.ZNUM, i.ZQTY, p.ZCODE FROM ZITEM i JOIN ZORDER o ON o.Z_PK = i.ZORDER JOIN ZPRODUCT p ON p.Z_PK = i.ZPRODUCT")
                == ["2|1|P"])
    }

    @Test("a nested object listing a to-many's destinations outside its count rejects its carrier; the list its carrier adds to is not held to it alone (the run failed verification, exit 5)")
    func nestedObjectOutsideAToManyCount() throws {
        let folder = try TestPaths.temporaryFolder("nested-count")
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Order" syncable="YES"><attribute name="num" attributeType="Integer 64"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="orders" inverseEntity="Item"/></entity>"#
            + #"<entity name="Item" syncable="YES"><attribute name="qty" attributeType="Integer 32"/>"#
            + #"<relationship name="orders" toMany="YES" minCount="1" maxCount="3" deletionRule="Nullify" destinationEntity="Order" inverseName="items" inverseEntity="Order"/>"#
            + #"<relationship name="tags" optional="YES" toMany="YES" minCount="1" maxCount="2" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/></entity>"#
            + #"<entity name="Tag" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Orders", versions: [("Orders", model)], in: folder)
        let source = try write(#"""
            [{"num": 1, "items": [{"qty": 1, "tags": [{"name": "a"}, {"name": "b"}]}]},
             {"num": 2, "items": [{"qty": 2, "tags": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}]},
             {"num": 3, "items": [{"qty": 3, "tags": []}]}]
            """#, "orders.json", in: folder)
        let out = folder + "/out.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Order", out: out, model: bundle, version: nil)).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(summary.written == 1 && summary.rejected == 2 && summary.isBalanced)
        #expect(summary.sampleRejects.map(\.reason) == ["3 destinations where the model allows 1 to 2 (Core Data refuses to save the object)",
                                                         "0 destinations where the model allows 1 to 2 (Core Data refuses to save the object)"],
                "\(summary.sampleRejects)")
        #expect(summary.sampleRejects.map { $0.location.path ?? "" } == ["[1].items[0].tags", "[2].items[0].tags"])
        #expect(try storeRows(out, "SELECT count(*) FROM ZTAG") == ["2"])
        // The accounting checks a ledger per source entity, the carried ones' too (their check
        // was written + merged against itself).
        #expect(summary.ledgers.map(\.entity).sorted() == ["Item", "Order", "Tag"])
        #expect(summary.ledgers.allSatisfy { $0.isBalanced }, "\(summary.ledgers)")
        let accounting = try #require(summary.verification?.sections.first { $0.name == "accounting" })
        #expect(accounting.checks == summary.ledgers.count + 1)
    }

    @Test("under keep-first, a reference before the full object: the full object's values and relationships are the record's (they were dropped, exit 0)")
    func referenceBeforeFullObject() throws {
        let folder = try TestPaths.temporaryFolder("nested-reference-first")
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Order" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="product" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Product" inverseName="orders" inverseEntity="Product"/></entity>"#
            + #"<entity name="Product" syncable="YES"><attribute name="code" attributeType="String"/><attribute name="title" optional="YES" attributeType="String"/>"#
            + #"<relationship name="orders" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Order" inverseName="product" inverseEntity="Order"/>"#
            + #"<relationship name="vendor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Vendor" inverseName="products" inverseEntity="Vendor"/>"#
            + #"<uniquenessConstraints><uniquenessConstraint><constraint value="code"/></uniquenessConstraint></uniquenessConstraints></entity>"#
            + #"<entity name="Vendor" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="products" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Product" inverseName="vendor" inverseEntity="Product"/></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Orders", versions: [("Orders", model)], in: folder)
        let source = try write("""
            [{"name": "o1", "product": {"code": "P1"}},
             {"name": "o2", "product": {"code": "P1", "title": "Widget", "vendor": {"name": "Acme"}}},
             {"name": "o3", "product": {"code": "P1", "title": "Gadget", "vendor": {"name": "Other"}}}]
            """, "orders.json", in: folder)
        let out = folder + "/out.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Order", out: out, model: bundle, version: nil)).run()
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, "SELECT p.ZCODE, p.ZTITLE, v.ZNAME FROM ZPRODUCT p LEFT JOIN ZVENDOR v ON v.Z_PK = p.ZVENDOR") == ["P1|Widget|Acme"])
        #expect(try storeRows(out, "SELECT o.ZNAME, p.ZCODE FROM ZORDER o JOIN ZPRODUCT p ON p.Z_PK = o.ZPRODUCT ORDER BY 1") == ["o1|P1", "o2|P1", "o3|P1"])
    }

    @Test("a many-to-many ordered on both sides, given from both sides: every list keeps distinct places (two artists shared one, exit 5)")
    func orderedManyToManyFromBothSides() throws {
        let folder = try TestPaths.temporaryFolder("nested-ordered-both-sides")
        let model = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">"#
            + #"<entity name="Artist" syncable="YES"><attribute name="name" attributeType="String"/>"#
            + #"<relationship name="albums" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Album" inverseName="artists" inverseEntity="Album"/></entity>"#
            + #"<entity name="Album" syncable="YES"><attribute name="title" attributeType="String"/>"#
            + #"<relationship name="artists" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Artist" inverseName="albums" inverseEntity="Artist"/></entity></model>"#
        let bundle = try TestPaths.xcodeModelBundle("Music", versions: [("Music", model)], in: folder)
        let source = try write(#"[{"name": "A", "albums": [{"title": "T", "artists": [{"name": "X"}, {"name": "Y"}]}, {"title": "U"}]}]"#,
                               "artists.json", in: folder)
        let out = folder + "/out.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Artist", out: out, model: bundle, version: nil)).run()
        #expect(summary.verification?.passed == true, "\(String(describing: summary.verification))")
        #expect(try storeRows(out, """
            SELECT b.ZTITLE || ':' || group_concat(a.ZNAME, ',') FROM (SELECT * FROM Z_1ARTISTS ORDER BY Z_1ALBUMS, Z_FOK_2ARTISTS) j
            JOIN ZALBUM b ON b.Z_PK = j.Z_1ALBUMS JOIN ZARTIST a ON a.Z_PK = j.Z_2ARTISTS GROUP BY b.ZTITLE ORDER BY 1
            """) == ["T:X,Y,A", "U:A"])
        #expect(try storeRows(out, "SELECT count(*) FROM Z_1ARTISTS GROUP BY Z_1ALBUMS HAVING count(DISTINCT Z_FOK_2ARTISTS) < count(*)") == [])
    }

    @Test("a nested object that names another parent than its carrier: a claim by several, reported, exit 1 (the override was silent, exit 0)")
    func nestedObjectNamingAnotherParent() throws {
        let folder = try TestPaths.temporaryFolder("nested-other-parent")
        let bundle = try taskTree(in: folder, ordered: false, uniqueID: true)
        let source = try write(#"[{"tid": 10, "children": [{"tid": 11, "parent": 12}, {"tid": 13, "parent": 10}]}, {"tid": 12}]"#, "tasks.json", in: folder)
        var request = importing([source], entity: "Task", out: folder + "/out.sqlite", model: bundle, version: nil)
        request.files.linkAttributes = ["parent": "tid"]
        let summary = try ImportJob(request: request).run()
        #expect(summary.verification?.passed == true)
        let claims = summary.links.reduce(0) { $0 + $1.conflicts }
        #expect(claims == 1, "\(summary.links)")
        // The pair the losing record gave is not kept: the run says so with exit 1 (it exited 0).
        #expect(summary.leftSomethingOut)
    }

    @Test("a nested dictionary of a property list is a record too")
    func plistNestedDictionary() throws {
        let folder = try TestPaths.temporaryFolder("nested-plist")
        let source = try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><array>
              <dict><key>remotePath</key><string>/p.jpg</string><key>uploadID</key><string>\(uuid(5))</string>
                <key>task</key><dict><key>taskID</key><integer>9</integer><key>title</key><string>from plist</string>
                  <key>tags</key><array><dict><key>name</key><string>deep</string></dict></array></dict></dict>
            </array></plist>
            """, "uploads.plist", in: folder)
        let out = folder + "/W3.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Upload", out: out)).run()
        #expect(summary.written == 1 && summary.carried["Task"]?.written == 1 && summary.carried["Tag"]?.written == 1)
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, """
            SELECT u.ZREMOTEPATH, t.ZTITLE, g.ZNAME FROM ZUPLOAD u JOIN ZTASK t ON u.ZTASK = t.Z_PK
            JOIN Z_1TASKS j ON j.Z_2TASKS = t.Z_PK JOIN ZTAG g ON g.Z_PK = j.Z_1TAGS
            """) == ["/p.jpg|from plist|deep"])
    }

    private static let books = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Book" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="chapters" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Chapter" inverseName="book" inverseEntity="Chapter"/>
            </entity>
            <entity name="Chapter" syncable="YES">
                <attribute name="title" attributeType="String"/>
                <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="chapters" inverseEntity="Book"/>
            </entity>
        </model>
        """

    @Test("an ordered relationship keeps the array's order; without a constraint every nested object is a new record")
    func orderedKeepsOrder() throws {
        let folder = try TestPaths.temporaryFolder("nested-ordered")
        try FileManager.default.createDirectory(atPath: folder + "/Books.xcdatamodel", withIntermediateDirectories: true)
        _ = try write(Self.books, "Books.xcdatamodel/contents", in: folder)
        let source = try write("""
            {"title": "A", "chapters": [{"title": "Zeta"}, {"title": "Alpha"}, {"title": "Mu"}]}
            {"title": "B", "chapters": [{"title": "Alpha"}]}

            """, "books.ndjson", in: folder)
        let out = folder + "/Books.sqlite"
        let summary = try ImportJob(request: importing([source], entity: "Book", out: out, model: folder + "/Books.xcdatamodel",
                                                       version: nil)).run()
        #expect(summary.carried["Chapter"] == .init(written: 4, merged: 0))
        #expect(summary.verification?.passed == true)
        #expect(try storeRows(out, """
            SELECT b.ZTITLE, c.ZTITLE FROM ZCHAPTER c JOIN ZBOOK b ON c.ZBOOK = b.Z_PK ORDER BY b.ZTITLE, c.Z_FOK_BOOK
            """) == ["A|Zeta", "A|Alpha", "A|Mu", "B|Alpha"])
    }

    @Test("the depth limit: a nested object deeper than maxDepth rejects its record")
    func depthLimit() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: workspace)
        let model = try #require(bundle.version(named: "Workspace 3"))
        let schema = try #require(RecordSchema(model: model, entityName: "Task"))
        var decoder = try DocumentRecordDecoder(schema: schema, model: model, maxDepth: 1)
        let attachment: DocumentValue = .object([("remotePath", .string("/a.jpg")), ("uploadID", .string(uuid(1))),
                                                 ("task", .object([("taskID", .number("2"))]))])
        let result = try decoder.decode([("taskID", .number("1")), ("attachments", .array([attachment]))],
                                        at: SourceLocation(file: "t.json", line: 4))
        guard case let .reject(reject) = result else {
            Issue.record("expected a reject, got \(result)")
            return
        }
        #expect(reject.location.description == "t.json:4 attachments[0].task")
        #expect(reject.reason.contains("at most 1 level"))
        var deeper = try DocumentRecordDecoder(schema: schema, model: model, maxDepth: 2)
        let accepted = try deeper.decode([("taskID", .number("1")), ("attachments", .array([attachment]))],
                                         at: SourceLocation(file: "t.json", line: 4))
        guard case let .record(record, _) = accepted else {
            Issue.record("expected a record, got \(accepted)")
            return
        }
        #expect(EmbeddedRecord.flattened(record).map(\.entity) == ["Task", "Upload"])
        #expect(record.links.first?.targets == [.key(EmbeddedRecord.key(at: SourceLocation(file: "t.json", line: 4, path: "attachments[0]")))])
        // Messages name a nested object by where it was read, never by the key Ferry made for it.
        guard case .text(let key) = EmbeddedRecord.key(at: SourceLocation(file: "t.json", line: 4, path: "[1].attachments[0]")) else {
            Issue.record("a nested object's key is text")
            return
        }
        #expect(EmbeddedRecord.description(ofKey: key) == "the nested object at line 4, [1].attachments[0]")
        #expect(EmbeddedRecord.description(ofKey: "tag-7") == nil)
    }

    @Test("a key twice in a nested object rejects its carrier, located by the nested path")
    func nestedDuplicateKeys() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: workspace)
        let model = try #require(bundle.version(named: "Workspace 3"))
        let schema = try #require(RecordSchema(model: model, entityName: "Task"))
        var decoder = try DocumentRecordDecoder(schema: schema, model: model)
        let attachment: DocumentValue = .object([("remotePath", .string("/old.jpg")), ("uploadID", .string(uuid(4))),
                                                 ("remotePath", .string("/new.jpg"))])
        let result = try decoder.decode([("taskID", .number("4")), ("attachments", .array([attachment]))],
                                        at: SourceLocation(file: "t.json", line: 4))
        guard case let .reject(reject) = result else {
            Issue.record("expected a reject, got \(result)")
            return
        }
        #expect(reject.location == SourceLocation(file: "t.json", line: 4, path: "attachments[0]"))
        #expect(reject.reason == "key \"remotePath\" appears more than once in one object: which value is meant cannot be told")
    }
}

@Suite("nested objects: a reject policy and the migration chain")
struct NestedRecordPolicyTests {
    private let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    @Test("a carried record whose entity's policy is reject: a duplicate rejects the carrier before anything of it is written")
    func rejectPolicyRejectsCarrier() throws {
        let model = try #require(try XcodeModelLoader.loadBundle(at: workspace).version(named: "Workspace 3"))
        let task = try #require(RecordSchema(model: model, entityName: "Task"))
        let tag = try #require(RecordSchema(model: model, entityName: "Tag"))
        let folder = try TestPaths.temporaryFolder("nested-reject")
        let path = folder + "/W3.sqlite"
        let hashes = VersionHasher.hashes(of: model)
        let store = try CoreDataStoreWriter.create(at: path, model: model, versionHashes: hashes.entityHashes, versionIdentifiers: [""])
        let graph = StoreGraphWriter(writer: store, model: model, duplicates: .keepFirst, duplicatesByEntity: ["Tag": .reject])
        let idIndex = try #require(task.index(of: "taskID")), titleIndex = try #require(task.index(of: "title"))
        func carrier(_ id: Int64, tags: [String]) -> Record {
            let location = SourceLocation(file: "tasks.json", line: Int(id))
            let carried = tags.enumerated().map { index, name in
                let at = SourceLocation(file: "tasks.json", line: Int(id), path: "tags[\(index)]")
                return EmbeddedRecord(entity: "Tag", record: Record(values: [.string(name)], location: at, key: EmbeddedRecord.key(at: at)))
            }
            var values = task.attributes.map { _ in AttributeValue.null }
            values[idIndex] = .integer(id)
            values[titleIndex] = .string("t\(id)")
            return Record(values: values, location: location,
                          links: [RecordLink(relationship: "tags", targets: carried.compactMap { $0.record.key.map { .key($0) } })],
                          embedded: carried)
        }
        var outcomes: [StoreGraphWriter.EmbeddedOutcome] = []
        #expect(try graph.write(carrier(1, tags: ["work"]), schema: task, namespace: 0, embedded: &outcomes) == .inserted)
        #expect(outcomes.map(\.outcome) == [.inserted])
        outcomes = []
        let again = try graph.write(carrier(2, tags: ["home", "work"]), schema: task, namespace: 0, embedded: &outcomes)
        guard case .rejected(let reason) = again else {
            Issue.record("expected a reject, got \(again)")
            return
        }
        #expect(reason.hasPrefix("tags[1]: Tag is a duplicate on unique (name)"))
        let twice = try graph.write(carrier(3, tags: ["x", "x"]), schema: task, namespace: 0, embedded: &outcomes)
        #expect(twice != .inserted)
        #expect(outcomes.isEmpty)
        _ = try graph.write(Record(values: [.string("solo")], location: SourceLocation(file: "tags.json")), schema: tag, namespace: 1)
        _ = try graph.resolveLinks()
        try store.finish()
        #expect(try storeRows(path, "SELECT ZNAME FROM ZTAG ORDER BY 1") == ["solo", "work"])
        #expect(try storeRows(path, "SELECT ZTASKID FROM ZTASK") == ["1"])
    }

    @Test("ferry migrate of a Workspace 2 file: nested attachments go through the Upload mapping, with their own ledger")
    func migrateCarriesNestedRecords() throws {
        let folder = try TestPaths.temporaryFolder("nested-migrate")
        let source = folder + "/tasks.ndjson"
        try Data("""
            {"taskID": 1, "title": "Trip", "attachments": [{"remotePath": "/a.jpg", "fileSize": "1.00", "time": 1400000000, "fileType": 9}], "tags": [{"name": "work"}]}
            {"taskID": 2, "title": "Bad", "attachments": [{"remotePath": "/b.jpg", "fileSize": "lots"}]}
            {"taskID": 3, "title": "Again", "attachments": [{"remotePath": "/a.jpg", "fileSize": "1.00", "time": 1400000000, "fileType": 9}], "tags": [{"name": "work"}]}

            """.utf8).write(to: URL(fileURLWithPath: source))
        let out = folder + "/W3.sqlite"
        let request = MigrateRequest(sources: [MigrationSource(argument: "Task@Workspace 2:\(source)")], modelPath: workspace, outputPath: out,
                                     variables: ["zone": "Asia/Shanghai"])
        let summary = try MigrateJob(request: request).run()
        #expect(summary.isBalanced && summary.verification?.passed == true)
        let tasks = try #require(summary.ledgers.first { $0.entity == "Task" })
        #expect(tasks.read == 3 && tasks.written == 2 && tasks.rejected == 1)
        let uploads = try #require(summary.ledgers.first { $0.entity == "Upload" })
        #expect(uploads.read == 2 && uploads.written == 1 && uploads.merged == 1)
        #expect(summary.written["Upload"] == 1 && summary.written["Tag"] == 1)
        #expect(summary.sampleRejects.first?.location.path == "attachments[0]")
        #expect(try storeRows(out, "SELECT u.ZBYTECOUNT, u.ZKIND, t.ZTASKID FROM ZUPLOAD u JOIN ZTASK t ON u.ZTASK = t.Z_PK")
            == ["1048576|5|3"])
    }
}
