import Ferry
import FerryModel
import FerryStore
import FerryStoreTestSupport
import FerryTestSupport
import Foundation
import Testing

/// Core Data validates an object it saves against every rule of the model, not only the bounds:
/// Xcode's Reg. Ex. (`regularExpressionString`, read by no part of Ferry before) and a compiled
/// model's validation predicates (`length >= 3 AND length <= 50`). `import` wrote values that
/// fail them with exit 0, objects an app could not save. New objects are now held to them
/// (rejects naming the rule), `update` refuses them, `verify` notes stored values that fail them,
/// and the rule survives the model's XML and archive round trips.
@Suite("the model's validation rules")
struct ValidationRuleTests {
    /// `topic` as the ntfy app's model spells it; `email`'s pattern needs escaping in a predicate.
    private static let contents = #"""
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Subscription" syncable="YES">
                <attribute name="topic" attributeType="String" minValueString="1" maxValueString="64" regularExpressionString="^[-_A-Za-z0-9]{1,64}$"/>
                <attribute name="email" optional="YES" attributeType="String" regularExpressionString="[a-z.]+@[a-z]+\.[a-z]{2,}"/>
            </entity>
        </model>
        """#

    private func imported(_ rows: String, in folder: String, model: String? = nil) throws -> (store: String, model: String, run: FerryProcess.Result) {
        let model = try model ?? TestPaths.xcodeModelBundle("Subscriptions", versions: [("Subscriptions", Self.contents)], in: folder)
        try ("topic,email\n" + rows).write(toFile: folder + "/subscriptions.csv", atomically: true, encoding: .utf8)
        let store = folder + "/subscriptions.sqlite"
        let run = try FerryProcess.run(["import", folder + "/subscriptions.csv", "--model", model, "--entity", "Subscription", "--out", store])
        return (store, model, run)
    }

    @Test("import rejects values that do not match the regular expression, as a whole string")
    func importRejectsPattern() throws {
        let folder = try TestPaths.temporaryFolder("rules-import")
        let (store, _, run) = try imported("alerts,ann@example.org\nbad topic,\nok_2,ann@example.org!\nbackups,\n", in: folder)
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("Subscription.topic: 'bad topic' does not match the model's regular expression ^[-_A-Za-z0-9]{1,64}$"), "\(run.err)")
        // A match of part of the string is not a match: NSPredicate's MATCHES takes the whole.
        #expect(run.err.contains(#"Subscription.email: 'ann@example.org!' does not match the model's regular expression [a-z.]+@[a-z]+\.[a-z]{2,}"#),
                "\(run.err)")
        #expect(try storeRows(store, "SELECT ZTOPIC FROM ZSUBSCRIPTION ORDER BY Z_PK") == ["alerts", "backups"])
    }

    @Test("the regular expression survives the model's XML and archive, and the store's model cache")
    func patternRoundTrips() throws {
        let folder = try TestPaths.temporaryFolder("rules-round-trip")
        let bundle = try TestPaths.xcodeModelBundle("Subscriptions", versions: [("Subscriptions", Self.contents)], in: folder)
        let model = try #require(try XcodeModelLoader.loadBundle(at: bundle).version(named: "Subscriptions"))
        let email = #"[a-z.]+@[a-z]+\.[a-z]{2,}"#
        #expect(model.entity(named: "Subscription")?.attribute(named: "email")?.validationRules.compactMap(\.pattern) == [email])
        let xml = String(decoding: try XcodeModelWriter.contents(of: model), as: UTF8.self)
        #expect(xml.contains(#"regularExpressionString="[a-z.]+@[a-z]+\.[a-z]{2,}""#), "\(xml)")
        let inspected = try FerryProcess.run(["inspect", bundle])
        #expect(inspected.out.contains("length 1...64, matches ^[-_A-Za-z0-9]{1,64}$"), "\(inspected.out)")
        let archived = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model), name: model.name)
        #expect(archived.entity(named: "Subscription")?.attribute(named: "email")?.validationRules.compactMap(\.pattern) == [email])
        let (store, _, run) = try imported("alerts,\n", in: folder, model: bundle)
        #expect(run.status == 0, "\(run.err)")
        let cached = try #require(try CoreDataStoreReader(path: store).modelCache())
        let fromStore = try ModelArchiveDecoder.decodeModelCache(cached, name: "Subscriptions", limit: 16 << 20)
        #expect(fromStore.entity(named: "Subscription")?.attribute(named: "topic")?.validationRules.compactMap(\.pattern) == ["^[-_A-Za-z0-9]{1,64}$"])
    }

    @Test("a compiled model's validation predicates hold new objects, with the rule's own warning")
    func compiledRules() throws {
        let folder = try TestPaths.temporaryFolder("rules-compiled")
        let model = ManagedObjectModel(name: "Subscriptions", entities: [Entity(name: "Subscription", attributes: [
            Attribute(name: "topic", type: .string, isOptional: false),
            Attribute(name: "email", type: .string, validationRules: [
                ValidationRule(predicate: "length >= 6 AND length <= 20", warning: .message("An email has 6 to 20 characters.")),
                ValidationRule(predicate: "SELF ENDSWITH \".org\"", warning: .code(2048)),
                ValidationRule(predicate: "uppercaseString BEGINSWITH \"A\"", warning: .code(2049)),
            ]),
        ])])
        let mom = folder + "/Subscriptions.mom"
        try Data(ModelArchiveEncoder.encodeModel(model)).write(to: URL(fileURLWithPath: mom))
        let (store, _, run) = try imported("a,ann@example.org\nb,a.org\nc,ann@example.com\nd,\n", in: folder, model: mom)
        #expect(run.status == 1, "\(run.err)")
        #expect(run.err.contains("Subscription.email: 'a.org' fails the model's validation rule 'length >= 6 AND length <= 20': "
                                 + "An email has 6 to 20 characters."), "\(run.err)")
        #expect(run.err.contains("'ann@example.com' fails the model's validation rule 'SELF ENDSWITH \".org\"' (Cocoa validation error 2048)"),
                "\(run.err)")
        #expect(try storeRows(store, "SELECT ZTOPIC FROM ZSUBSCRIPTION ORDER BY Z_PK") == ["a", "d"])
        // The rule Ferry cannot evaluate is named by verify, not silently passed over.
        let verified = try FerryProcess.run(["verify", store])
        #expect(verified.status == 0, "\(verified.out)\(verified.err)")
        #expect((verified.out + verified.err).contains("Subscription.email: the model's validation rule 'uppercaseString BEGINSWITH \"A\"' is not checked"),
                "\(verified.out)\(verified.err)")
    }

    @Test("verify notes stored values that fail a rule, counted with plain SQL, and still passes")
    func verifyNotes() throws {
        let folder = try TestPaths.temporaryFolder("rules-verify")
        let (store, _, run) = try imported("alerts,\nbackups,\n", in: folder)
        #expect(run.status == 0, "\(run.err)")
        let database = try SQLiteDatabase(path: store, mode: .readWrite)
        try database.execute("UPDATE ZSUBSCRIPTION SET ZTOPIC = 'two words' WHERE ZTOPIC = 'alerts'")
        try database.close()
        let verified = try FerryProcess.run(["verify", store])
        #expect(verified.status == 0, "\(verified.out)\(verified.err)")
        #expect((verified.out + verified.err).contains("Subscription.topic: 1 row(s) fail the model's validation (first: Z_PK 1, 'two words' does not match the model's regular expression"),
                "\(verified.out)\(verified.err)")
    }

    @Test("a real code-built model's rule (CoreDataPlus Book.title) is evaluated from the store's model cache, with its own warning",
          .enabled(if: TestPaths.corpusAvailable, "needs ../shared/corpus"))
    func corpusRule() throws {
        let source = TestPaths.corpus + "/coredata/alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/SampleModel2_V2.sqlite"
        let copy = try TestPaths.temporaryFolder("rules-corpus") + "/store.sqlite"
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        let clean = try FerryProcess.run(["verify", copy])
        #expect(clean.status == 0 && !(clean.out + clean.err).contains("validation"), "\(clean.out)\(clean.err)")
        let database = try SQLiteDatabase(path: copy, mode: .readWrite)
        try database.execute("UPDATE ZBOOK SET ZTITLE = 'ab' WHERE Z_PK = (SELECT min(Z_PK) FROM ZBOOK)")
        try database.close()
        let verified = try FerryProcess.run(["verify", copy])
        #expect(verified.status == 0, "\(verified.out)\(verified.err)")
        #expect((verified.out + verified.err).contains("Book.title: 1 row(s) fail the model's validation (first: Z_PK 1, 'ab' fails the model's "
            + "validation rule 'length >= 3 AND length <= 50': Title must have a length between 3 and 50 chars.)"), "\(verified.out)\(verified.err)")
    }

    @Test("update refuses a value that fails a rule (exit 3), the store unchanged")
    func updateRefuses() throws {
        let folder = try TestPaths.temporaryFolder("rules-update")
        let (store, _, run) = try imported("alerts,\n", in: folder)
        #expect(run.status == 0, "\(run.err)")
        let before = try TestPaths.read(store)
        let update = try FerryProcess.run(["update", store, "--entity", "Subscription", "--where", "TRUEPREDICATE", "--set", "topic=no spaces"])
        #expect(update.status == 3 && update.err.contains("'no spaces' does not match the model's regular expression"), "\(update.err)")
        #expect(try TestPaths.read(store) == before)
    }

    @Test("a pattern rule's predicate escapes the expression (backslash and quote only, as the archive's parser reads) and reads back")
    func patternPredicate() throws {
        let regex = "a\\\"b\\d\n"
        let rule = ValidationRule.pattern(regex)
        #expect(rule.predicate == "SELF MATCHES \"a\\\\\\\"b\\\\d\n\"")
        #expect(rule.pattern == regex)
        let model = ManagedObjectModel(name: "M", entities: [Entity(name: "E", attributes: [
            Attribute(name: "code", type: .string, validationRules: [rule]),
        ])])
        let archived = try ModelArchiveDecoder.decodeModel(archive: ModelArchiveEncoder.encodeModel(model), name: "M")
        #expect(archived.entity(named: "E")?.attribute(named: "code")?.validationRules.compactMap(\.pattern) == [regex])
        #expect(ValidationRule(predicate: rule.predicate, warning: .code(1620)).pattern == nil)
        #expect(ValidationRule(predicate: "SELF MATCHES \"a\" OR SELF MATCHES \"b\"", warning: .code(1680)).pattern == nil)
    }
}
