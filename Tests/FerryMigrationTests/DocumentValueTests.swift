import FerryFormats
import FerryMigration
import FerryModel
import FerryTestSupport
import Testing

/// Values of JSON and property-list documents that no attribute may take silently.
@Suite("document values: archive references, infinities, nulls in lists")
struct DocumentValueTests {
    @Test("a keyed archive's UID is no attribute's value: refused for every type, never read as its number")
    func uidsAreRefused() {
        let uid = DocumentValue(PropertyListValue.uid(3))
        #expect(uid == .uid(3) && uid != .number("3"))
        for type in [AttributeType.integer64, .string, .double, .boolean, .decimal] {
            guard case .failure(let failure) = DocumentCoercion.value(uid, as: type, options: .init()) else {
                Issue.record("a UID became a \(type.xcodeName)")
                continue
            }
            #expect(failure.reason == "an archive's object reference (UID) cannot be \(type.xcodeName)")
        }
    }

    @Test("a plist's infinite real is named as such in its reject, not as NaN")
    func infinitiesKeepTheirName() {
        #expect(DocumentValue(PropertyListValue.real(.infinity)) == .number("inf"))
        #expect(DocumentValue(PropertyListValue.real(-.infinity)) == .number("-inf"))
        #expect(DocumentValue(PropertyListValue.real(.nan)) == .number("nan"))
        guard case .failure(let failure) = DocumentCoercion.value(.number("-inf"), as: .double, options: .init()) else {
            Issue.record("-inf became a Double")
            return
        }
        #expect(failure.reason == "'-inf' is not a number")
    }

    @Test("a plist real no Double holds is its text, rejected with the words of the same CSV or JSON number (it was stored as 0)")
    func realsNoDoubleHoldsAreRejectedAsJSONNumbers() {
        #expect(DocumentValue(PropertyListValue.unrepresentableReal("1e-400")) == .number("1e-400"))
        let cases: [(String, AttributeType, String)] = [
            ("1e-400", .double, "1e-400 is too small for a Double: it would read back as 0"),
            ("1e-400", .float, "1e-400 is too small for a Float: it would read back as 0"),
            ("-1E400", .double, "-1E400 is out of range for Double"),
        ]
        for (text, type, reason) in cases {
            guard case .failure(let failure) = DocumentCoercion.value(DocumentValue(PropertyListValue.unrepresentableReal(text)), as: type, options: .init()) else {
                Issue.record("\(text) became a \(type.xcodeName)")
                continue
            }
            #expect(failure.reason == reason)
            #expect(DocumentCoercion.value(.number(text), as: type, options: .init()) == .failure(failure))
        }
    }

    @Test("a null in a to-many's list is a reject naming its position; a null for the whole relationship is an empty one")
    func nullInAList() throws {
        let bundle = try XcodeModelLoader.loadBundle(at: TestPaths.migrations + "/Workspace.xcdatamodeld")
        let model = try #require(bundle.current)
        let schema = try #require(RecordSchema(model: model, entityName: "Task"))
        var decoder = try DocumentRecordDecoder(schema: schema, model: model)
        let location = SourceLocation(file: "t.json", line: 1)
        func decode(_ tags: DocumentValue) throws -> RecordReadResult {
            try decoder.decodeRecord(.object([("taskID", .number("2")), ("title", .string("b")), ("tags", tags)]), at: location,
                                     container: "a JSON object")
        }
        for list in [DocumentValue.array([.null]), .array([.string("y"), .null])] {
            guard case .reject(let reject) = try decode(list) else {
                Issue.record("\(list) was read without its null")
                continue
            }
            #expect(reject.attribute == "tags" && reject.reason.hasPrefix("tags[\(list == .array([.null]) ? 0 : 1)] is null"))
        }
        guard case .record(let record, _) = try decode(.null) else {
            Issue.record("a null relationship was refused")
            return
        }
        #expect(record.links.allSatisfy { $0.relationship != "tags" || $0.targets.isEmpty })
    }
}
