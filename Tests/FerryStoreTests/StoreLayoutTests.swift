import FerryModel
import FerryStore
import Testing

/// Layout rules that need no corpus file (coredata-format.md §3–§5).
@Suite struct StoreLayoutTests {
    @Test func manyToManyNamingFollowsLowerEntityNumber() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "Article", relationships: [
                Relationship(name: "tags", destinationEntity: "Tag", inverseName: "articles", isToMany: true, isOrdered: true),
            ]),
            Entity(name: "Tag", relationships: [
                Relationship(name: "articles", destinationEntity: "Article", inverseName: "tags", isToMany: true),
            ]),
        ])
        let layout = try StoreLayout(model: model)
        let join = try #require(layout.table(named: "Z_1TAGS"))
        #expect(join.columns.map(\.name) == ["Z_1ARTICLES", "Z_2TAGS", "Z_FOK_2TAGS"])
        #expect(join.createStatement ==
            "CREATE TABLE Z_1TAGS ( Z_1ARTICLES INTEGER, Z_2TAGS INTEGER, Z_FOK_2TAGS INTEGER, PRIMARY KEY (Z_1ARTICLES, Z_2TAGS) )")
        #expect(join.columns[0].role == .joinKey(entity: "Article", relationship: "articles"))
        #expect(layout.indexes.contains { $0.createStatement == "CREATE INDEX Z_1TAGS_Z_2TAGS_INDEX ON Z_1TAGS (Z_2TAGS, Z_1ARTICLES)" })
        #expect(layout.table(named: "Z_2ARTICLES") == nil)
        // No FK column on either side of a many-to-many.
        #expect(layout.table(forEntity: "Article")?.columns.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT"])
    }

    @Test func toOneIntoHierarchyGetsEntityColumnAndOrderedInverseGetsOrderColumn() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "Book", relationships: [
                Relationship(name: "pages", destinationEntity: "Page", inverseName: "book", isToMany: true, isOrdered: true),
            ]),
            Entity(name: "GraphicNovel", parentName: "Book"),
            Entity(name: "Page", attributes: [Attribute(name: "number", type: .integer32)], relationships: [
                Relationship(name: "book", destinationEntity: "Book", inverseName: "pages"),
            ]),
        ])
        let layout = try StoreLayout(model: model)
        let page = try #require(layout.table(forEntity: "Page"))
        #expect(page.createStatement ==
            "CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBER INTEGER, ZBOOK INTEGER, Z1_BOOK INTEGER, Z_FOK_BOOK INTEGER )")
        #expect(layout.indexes.map(\.name).sorted() == ["ZBOOK_Z_ENT_INDEX", "ZPAGE_ZBOOK_INDEX"])
    }

    @Test func collidingNamesGetNumericSuffixesInDeclarationOrder() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "Item", attributes: [Attribute(name: "stamp", type: .date)]),
            Entity(name: "Note", parentName: "Item", attributes: [Attribute(name: "title", type: .string)]),
            Entity(name: "Task", parentName: "Item", attributes: [
                Attribute(name: "Title", type: .string), Attribute(name: "title", type: .string),
            ]),
        ])
        let layout = try StoreLayout(model: model)
        let names = layout.table(forEntity: "Item")?.columns.map(\.name)
        #expect(names == ["Z_PK", "Z_ENT", "Z_OPT", "ZSTAMP", "ZTITLE", "ZTITLE1", "ZTITLE2"])
        // A row of Note leaves the columns of its sibling Task out.
        #expect(layout.columns(forEntity: "Note").map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZSTAMP", "ZTITLE"])
    }

    /// Dates share the floating-point group, in name order (`ZD` before `ZE`); URIs follow strings.
    @Test func columnGroupsOrderIntegersRealsDecimalsStringsURIsUUIDsBlobs() throws {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "Mix", attributes: [
                Attribute(name: "a", type: .binary), Attribute(name: "b", type: .string), Attribute(name: "c", type: .uuid),
                Attribute(name: "d", type: .double), Attribute(name: "e", type: .date), Attribute(name: "f", type: .boolean),
                Attribute(name: "g", type: .decimal), Attribute(name: "h", type: .uri), Attribute(name: "i", type: .transformable),
                Attribute(name: "j", type: .undefined, isTransient: true),
            ]),
        ])
        let columns = try #require(try StoreLayout(model: model).table(forEntity: "Mix")).columns.dropFirst(3)
        #expect(columns.map { "\($0.name) \($0.declaredType)" } == [
            "ZF INTEGER", "ZD FLOAT", "ZE TIMESTAMP", "ZG DECIMAL", "ZB VARCHAR", "ZH VARCHAR", "ZC BLOB", "ZA BLOB", "ZI BLOB",
        ])
    }

    @Test func hostileNamesAreRefused() {
        let model = ManagedObjectModel(name: "M", entities: [
            Entity(name: "Evil", attributes: [Attribute(name: "x); DROP TABLE Z_METADATA; --", type: .string)]),
        ])
        #expect(throws: StoreLayoutError.invalidName(entity: "Evil", name: "x); DROP TABLE Z_METADATA; --")) {
            try StoreLayout(model: model)
        }
    }

    @Test func tableCollisionsAndUnstorableRelationshipsAreRefused() {
        let sameIgnoringCase = ManagedObjectModel(name: "M", entities: [Entity(name: "Car"), Entity(name: "CAR")])
        #expect(throws: StoreLayoutError.entityNamesDifferOnlyInCase(first: "CAR", second: "Car")) {
            try StoreLayout(model: sameIgnoringCase)
        }
        // `_2BS` sorts before the letters: _2BS = 1, A = 2, B = 3, and A.bs's join table is Z_2BS.
        let collision = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", relationships: [Relationship(name: "bs", destinationEntity: "B", inverseName: "as", isToMany: true)]),
            Entity(name: "B", relationships: [Relationship(name: "as", destinationEntity: "A", inverseName: "bs", isToMany: true)]),
            Entity(name: "_2BS"),
        ])
        #expect(throws: StoreLayoutError.tableNameCollision(table: "Z_2BS", first: "entity _2BS", second: "relationship A.bs")) {
            try StoreLayout(model: collision)
        }
        let bookkeeping = ManagedObjectModel(name: "M", entities: [Entity(name: "_METADATA")])
        #expect(throws: StoreLayoutError.self) { try StoreLayout(model: bookkeeping) }
        // To-many relationships without an inverse whose storage no store shows, or naming an
        // inverse that is not there.
        let orderedNoInverse = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", relationships: [Relationship(name: "bs", destinationEntity: "B", isToMany: true, isOrdered: true)]),
            Entity(name: "B"),
        ])
        #expect(throws: StoreLayoutError.orderedToManyWithoutInverse(entity: "A", relationship: "bs")) {
            try StoreLayout(model: orderedNoInverse)
        }
        let fromHierarchy = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", relationships: [Relationship(name: "bs", destinationEntity: "B", isToMany: true)]),
            Entity(name: "A2", parentName: "A"),
            Entity(name: "B"),
        ])
        #expect(throws: StoreLayoutError.toManyWithoutInverseFromHierarchy(entity: "A", relationship: "bs")) {
            try StoreLayout(model: fromHierarchy)
        }
        let missingInverse = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", relationships: [Relationship(name: "bs", destinationEntity: "B", inverseName: "a", isToMany: true)]),
            Entity(name: "B"),
        ])
        #expect(throws: StoreLayoutError.unknownInverse(entity: "A", relationship: "bs", inverse: "a")) {
            try StoreLayout(model: missingInverse)
        }
        let badIndex = ManagedObjectModel(name: "M", entities: [
            Entity(name: "A", uniquenessConstraints: [["missing"]]),
        ])
        #expect(throws: StoreLayoutError.unknownIndexProperty(entity: "A", index: "Z_A_UNIQUE_missing", property: "missing")) {
            try StoreLayout(model: badIndex)
        }
    }

    @Test func bookkeepingTablesUseCoreDataDDL() throws {
        let layout = try StoreLayout(model: Models.sampleModelV1)
        #expect(layout.table(named: "Z_PRIMARYKEY")?.createStatement ==
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        #expect(layout.table(named: "Z_METADATA")?.createStatement ==
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        #expect(layout.table(named: "Z_MODELCACHE")?.createStatement == "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
        #expect(layout.entityNumbers == ["Car": 1, "SportCar": 2, "ExpensiveSportCar": 3, "Person": 4])
    }
}
