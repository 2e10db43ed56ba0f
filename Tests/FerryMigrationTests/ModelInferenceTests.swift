import FerryMigration
import FerryModel
import Testing

@Suite("model inference: types, optionality, uniqueness and relationships from values")
struct ModelInferenceTests {
    /// The profile of records given as key → text (CSV-like; nil is an empty unquoted field).
    private func profile(_ rows: [[String: String?]], limit: Int = 1000, options: CoercionOptions = .init()) -> EntityProfile {
        let profile = EntityProfile(options: options, budget: DistinctValueBudget(limit: limit))
        for row in rows {
            profile.observe(row.sorted { $0.key < $1.key }.map { ($0.key, $0.value.map { .value(.string($0)) } ?? ObservedValue.missing) })
        }
        return profile
    }

    /// The type chosen for one column of text values.
    private func type(_ key: String, _ values: [String], epoch: CoercionOptions.NumericDateEpoch = .unixSeconds) -> AttributeType? {
        var evidence = ValueEvidence(options: CoercionOptions(numericDateEpoch: epoch))
        for value in values { evidence.observe(.value(.string(value))) }
        return AttributeTypeChoice(evidence, key: key, epoch: epoch)?.type
    }

    @Test("integers take the narrowest width their range fits; 0 and 1 stay integers")
    func integerWidths() {
        #expect(type("n", ["1", "-32768", "32767"]) == .integer16)
        #expect(type("n", ["1", "32768"]) == .integer32)
        #expect(type("n", ["-2147483649", "0"]) == .integer64)
        #expect(type("flag", ["0", "1", "1"]) == .integer16)
        #expect(type("n", ["99999999999999999999"]) == .string, "a store's Decimal (a real) would read it back as 1e20")
        #expect(type("zip", ["08075", "19104"]) == .string && type("n", ["0", "-0", "10"]) == .integer16)
    }

    @Test("a number with two signs is no integer to inference either, as import refuses it")
    func twoSigns() {
        #expect(type("n", ["+-5", "6"]) == .string)
        #expect(type("n", ["-5", "6"]) == .integer16)
    }

    @Test("an integer past 2^53, which no Double holds, still sets the range: the type holds every value it was chosen from")
    func integersPastDoublePrecision() {
        #expect(type("n", ["9007199254740993", "1", "2"]) == .integer64)
        var evidence = ValueEvidence()
        for value in ["9223372036854775807", "-9223372036854775808", "1"] { evidence.observe(.value(.string(value))) }
        let choice = AttributeTypeChoice(evidence, key: "big", epoch: .unixSeconds)
        #expect(choice?.type == .integer64)
        #expect(choice?.basis == "integers -9223372036854775808 to 9223372036854775807")
    }

    @Test("numbers written with a leading '+' stay String, as a number would drop the sign")
    func leadingPlus() {
        #expect(type("phone", ["+15551234567", "15551234567"]) == .string)
        #expect(type("x", ["2.5", "+1.5"]) == .string)
        #expect(type("n", ["-5", "7"]) == .integer16)
        var evidence = ValueEvidence()
        evidence.observe(.value(.string("+15551234567")))
        #expect(AttributeTypeChoice(evidence, key: "phone", epoch: .unixSeconds)?.basis
            == "a number written with a leading '+' ('+15551234567'), which a number would drop")
    }

    @Test("booleans, Double against Decimal, UUIDs, URIs, dates")
    func otherTypes() {
        #expect(type("done", ["true", "NO", "yes", "0"]) == .boolean)
        #expect(type("x", ["2.35", "1e3", "-0.5"]) == .double)
        #expect(type("lat", ["42.3500000", "-71.1000000"]) == .double)
        #expect(type("x", ["2.50", "3.125"]) == .double)
        #expect(type("price", ["2.35", "3.10", "12"]) == .decimal)
        #expect(type("x", ["0.30000000000000004"]) == .decimal)
        #expect(type("x", ["0.1234567890123456789", "0.5"]) == .string, "more digits than a store's Decimal keeps")
        #expect(type("id", ["6A9D0C84-FF9F-45B1-88DB-8F628140E1C3", "a1cafe8b-b5f3-4400-b829-d8d835e7fd60"]) == .uuid)
        #expect(type("home", ["https://example.com/a", "ftp://host/b"]) == .uri)
        #expect(type("path", ["/remote/a.jpg", "mailto:x@example.com"]) == .string)
        #expect(type("day", ["2014-03-01", "2014-03-02T10:00:00Z"]) == .date)
        #expect(type("day", ["2014-03-01", "2014-02-30"]) == .string)
        #expect(type("x", ["", "  "]) == .string)
    }

    @Test("numbers are a Date only when the name says a time and they fall between 1980 and 2100 on the run's epoch")
    func epochDates() {
        #expect(type("time", ["1388538000", "1388620800"]) == .date)
        #expect(type("createdAt", ["1388538000"]) == .date)
        #expect(type("count", ["1388538000"]) == .integer32)
        #expect(type("time", ["1388538000000"]) == .integer64)
        #expect(type("time", ["1388538000000"], epoch: .unixMilliseconds) == .date)
        #expect(type("time", ["12"]) == .integer16)
        #expect(type("format", ["1388538000"]) == .integer32)
    }

    @Test("base64 is Binary only when it looks encoded; hex digests and words stay text")
    func binary() {
        #expect(type("image", ["iVBORw0KGgoAAAANSUhEUgAAAAoAAAAKCAIAAAACUFjq", "AAAA"]) == .binary)
        #expect(type("md5", ["d41d8cd98f00b204e9800998ecf8427e"]) == .string)
        #expect(type("word", ["abcdefghijklmnop"]) == .string)
        var evidence = ValueEvidence()
        evidence.observe(.value(.data([1, 2, 3])))
        #expect(AttributeTypeChoice(evidence, key: "blob", epoch: .unixSeconds)?.type == .binary)
        evidence.observe(.value(.string("not base64!")))
        #expect(AttributeTypeChoice(evidence, key: "blob", epoch: .unixSeconds) == nil)
    }

    @Test("Binary only when every value is canonical base64, given back as read; text with spaces, line breaks or unused bits set stays String")
    func binaryOnlyFromCanonicalBase64() {
        #expect(type("todo", ["Send 2 boxes to Anna", "Read book", "Email Tom"]) == .string)
        #expect(type("token", ["abcdefghijklmnopqB==", "ABCDEFGHIJKLMNOP"]) == .string)
        #expect(type("token", ["abcdefghijklmnopqA==", "ABCDEFGHIJKLMNOP"]) == .binary)
        #expect(type("image", ["iVBORw0KGgoAAAANSUhEUgAA\nAAoAAAAKCAIAAAACUFjq"]) == .string, "import would give it back without the line break")
        #expect(type("image", ["iVBORw0KGgoAAAANSUhEUgAAAAoAAAAKCAIAAAACUFjq", " AAAA"]) == .string)
        var evidence = ValueEvidence()
        evidence.observe(.value(.string("iVBORw0KGgoAAAANSUhEUgAAAAoAAAAKCAIAAAACUFjq")))
        var other = ValueEvidence()
        other.observe(.value(.string("Send2boxes to Anna")))
        evidence.merge(other)
        #expect(AttributeTypeChoice(evidence, key: "blob", epoch: .unixSeconds)?.type == .string)
    }

    @Test("a record without a value makes the attribute optional; an empty quoted field is a String's value")
    func optionality() throws {
        let made = profile([["a": "1", "b": "x"], ["a": nil, "b": "y"], ["b": "z"]])
        let (model, report) = ModelInference.model(version: "V", entity: "Item", from: made)
        let entity = try #require(model.entity(named: "Item"))
        #expect(entity.attribute(named: "a")?.isOptional == true && entity.attribute(named: "b")?.isOptional == false)
        #expect(report.entities[0].attributes.first { $0.name == "a" }?.missing == 2)

        let quoted = EntityProfile(budget: DistinctValueBudget(limit: 10))
        quoted.observe([("s", .emptyField), ("n", .emptyField)])
        quoted.observe([("s", .value(.string("x"))), ("n", .value(.string("4")))])
        let (other, _) = ModelInference.model(version: "V", entity: "Item", from: quoted)
        #expect(other.entity(named: "Item")?.attribute(named: "s")?.isOptional == false)
        #expect(other.entity(named: "Item")?.attribute(named: "n")?.isOptional == true)
    }

    @Test("one uniqueness constraint where a key is unique and never blank, an identifier preferred")
    func uniqueness() throws {
        let rows: [[String: String?]] = [["name": "a", "taskID": "1", "kind": "x", "note": "p"],
                                         ["name": "b", "taskID": "2", "kind": "x", "note": nil],
                                         ["name": "c", "taskID": "3", "kind": "y", "note": "q"]]
        let (model, report) = ModelInference.model(version: "V", entity: "Task", from: profile(rows))
        #expect(model.entity(named: "Task")?.uniquenessConstraints == [["taskID"]])
        #expect(report.entities[0].alsoUnique == ["name"])
        let duplicated = profile([["id": "1"], ["id": " 01"]])
        #expect(ModelInference.model(version: "V", entity: "T", from: duplicated).0.entities[0].uniquenessConstraints.isEmpty)
    }

    @Test("the uniqueness budget gives up, says so, and keeps no constraint")
    func uniquenessBudget() {
        let rows = (0..<20).map { ["id": "\($0)", "code": "c\($0)"] as [String: String?] }
        let (model, report) = ModelInference.model(version: "V", entity: "T", from: profile(rows, limit: 25))
        #expect(model.entities[0].uniquenessConstraints == [["code"]])
        #expect(report.entities[0].uniquenessNotChecked.map(\.attribute) == ["id"])
    }

    @Test("nested objects become a to-one or ordered to-many relationship with an inverse; arrays of values an ordered to-many of value objects owned by their record")
    func relationships() throws {
        let made = EntityProfile(budget: DistinctValueBudget(limit: 100))
        made.observe([("title", .string("a")), ("owner", .object([("name", .string("Ann"))])),
                      ("line_items", .array([.object([("sku", .number("7"))]), .object([("sku", .number("8"))])])),
                      ("tags", .array([.string("home"), .string("work")]))])
        made.observe([("title", .string("b")), ("tags", .array([.string("home")])), ("bad", .array([.array([])]))])
        let (model, report) = ModelInference.model(version: "V", entity: "Task", from: made)
        #expect(model.entities.map(\.name) == ["LineItem", "Owner", "Tag", "Task"])
        let task = try #require(model.entity(named: "Task"))
        let owner = try #require(task.relationship(named: "owner"))
        #expect(!owner.isToMany && owner.destinationEntity == "Owner" && owner.inverseName == "task")
        #expect(model.entity(named: "Owner")?.relationship(named: "task")?.inverseName == "owner")
        let items = try #require(task.relationship(named: "lineItems"))
        #expect(items.isToMany && items.isOrdered && items.renamingIdentifier == "line_items")
        #expect(model.entity(named: "LineItem")?.attribute(named: "sku")?.type == .integer16)
        let tags = try #require(task.relationship(named: "tags"))
        #expect(tags.isToMany && tags.isOrdered && tags.inverseName == "task")
        let tag = try #require(model.entity(named: "Tag"))
        // No uniqueness: `["home", "home"]` is two objects, as import makes one per element.
        #expect(tag.uniquenessConstraints.isEmpty && tag.relationship(named: "task")?.isToMany == false)
        #expect(report.entities[0].leftOut.map(\.key) == ["bad"])
    }

    @Test("a key holding a keyed archive's object references (UIDs) is left out, saying why, not inferred as an empty attribute")
    func archiveReferencesAreLeftOut() throws {
        let made = EntityProfile(budget: DistinctValueBudget(limit: 100))
        made.observe([("title", .string("a")), ("root", .uid(1)), ("members", .array([.uid(2), .uid(3)]))])
        made.observe([("title", .string("b")), ("root", .uid(4)), ("members", .array([]))])
        let (model, report) = ModelInference.model(version: "V", entity: "Archive", from: made)
        #expect(model.entity(named: "Archive")?.attributes.map(\.name) == ["title"])
        #expect(report.entities[0].leftOut.map(\.key).sorted() == ["members", "root"])
        #expect(report.entities[0].leftOut.first { $0.key == "root" }?.reason
            == "2 values are a keyed archive's object references (UIDs): no attribute holds one")
    }

    @Test("keys become names Xcode takes, the key kept as the renaming identifier")
    func naming() {
        #expect(ModelNaming.propertyName(forKey: "File Name") == "fileName")
        #expect(ModelNaming.propertyName(forKey: "URLPath") == "urlPath")
        #expect(ModelNaming.propertyName(forKey: "ID") == "id")
        #expect(ModelNaming.propertyName(forKey: "2nd") == "field2nd")
        #expect(ModelNaming.propertyName(forKey: "description") == "descriptionValue")
        #expect(ModelNaming.propertyName(forKey: "名前") == "field")
        #expect(ModelNaming.entityName(forKey: "categories") == "Category")
        #expect(ModelNaming.entityName(forKey: "boxes") == "Box")
        #expect(ModelNaming.entityName(forKey: "status") == "Status")
        let made = EntityProfile(budget: DistinctValueBudget(limit: 10))
        made.observe([("File Name", .string("a")), ("file name", .string("b"))])
        let (model, report) = ModelInference.model(version: "V", entity: "T", from: made)
        #expect(model.entities[0].attributes.map(\.renamingIdentifier) == ["File Name"])
        #expect(report.entities[0].leftOut.map(\.key) == ["file name"])
        // A key that is a name as it stands keeps it; the key made into that name gives way
        // (import matched both to fileName, and the model could not import its own file).
        let both = EntityProfile(budget: DistinctValueBudget(limit: 10))
        both.observe([("File Name", .string("a")), ("fileName", .string("b"))])
        let named = ModelInference.model(version: "V", entity: "T", from: both).0.entities[0].attributes
        #expect(named.map { "\($0.name)|\($0.renamingIdentifier ?? "-")" } == ["fileName2|File Name", "fileName|-"])
    }
}
