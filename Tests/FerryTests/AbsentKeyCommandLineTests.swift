import FerryTestSupport
import Foundation
import Testing

/// What `ferry import` and `ferry migrate` write for an attribute a record has no key for: the
/// model's default, said per attribute, or nothing with `--absent null`; a Ferry export's records
/// keep the NULLs its plists leave out.
extension CommandLineTests {
    private static let absentModel = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
            <entity name="Rec" syncable="YES">
                <attribute name="k" optional="YES" attributeType="String"/>
                <attribute name="od" optional="YES" attributeType="Double" defaultValueString="2.5" usesScalarValueType="YES"/>
                <attribute name="os" optional="YES" attributeType="String" defaultValueString="odflt"/>
                <attribute name="n" attributeType="Integer 16" defaultValueString="7" usesScalarValueType="YES"/>
            </entity>
        </model>
        """

    private func absentFixture(_ name: String) throws -> (folder: String, model: String) {
        let folder = try TestPaths.temporaryFolder(name)
        return (folder, try TestPaths.xcodeModelBundle("Absent", versions: [("Absent", Self.absentModel)], in: folder))
    }

    /// The store's records as `k,od,os,n` lines, by `k`.
    private func records(_ store: String) throws -> [String] {
        let query = try ferry("query", store, "--entity", "Rec", "--format", "csv", "--sort", "k")
        #expect(query.status == 0, "\(query.err)")
        let lines = query.out.split(whereSeparator: \.isNewline).map(String.init)
        let header = lines.first?.split(separator: ",").map(String.init) ?? []
        let columns = ["k", "od", "os", "n"].compactMap { header.firstIndex(of: $0) }
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return columns.map { fields[$0] }.joined(separator: ",")
        }
    }

    @Test("a model default written for an absent key is counted and said per attribute, in the summary and --json; a null is not")
    func absentDefaultsAreReported() throws {
        let (folder, model) = try absentFixture("cli-absent-report")
        let json = folder + "/in.json"
        try Data(#"[{"k":"a"},{"k":"b","od":1.5},{"k":"c"},{"k":"d","od":null,"os":null,"n":3}]"#.utf8).write(to: URL(fileURLWithPath: json))
        let run = try ferry("import", json, "--model", model, "--entity", "Rec", "--out", folder + "/a.sqlite")
        #expect(run.status == 0, "\(run.err)")
        let notes = run.err.split(separator: "\n").filter { $0.hasPrefix("note:") }
        #expect(notes == ["note: Rec.od: 2 records had no key; the model's default 2.5 was written",
                          "note: Rec.os: 3 records had no key; the model's default odflt was written",
                          "note: Rec.n: 3 records had no key; the model's default 7 was written"], "\(run.err)")
        #expect(try records(folder + "/a.sqlite") == ["a,2.5,odflt,7", "b,1.5,odflt,7", "c,2.5,odflt,7", "d,,,3"])
        let summary = try ferry("import", json, "--model", model, "--entity", "Rec", "--out", folder + "/j.sqlite", "--json")
        #expect(summary.out.contains(#"{"attribute":"od","entity":"Rec","records":2,"value":"2.5"}"#), "\(summary.out)")

        let csv = folder + "/in.csv"
        try Data("k,od\na,\nb,1\n".utf8).write(to: URL(fileURLWithPath: csv))
        let migrate = try ferry("migrate", "Rec:" + csv, "--model", model, "--out", folder + "/m.sqlite")
        #expect(migrate.status == 0 && migrate.err.contains("note: Rec.os: 2 records had no key; the model's default odflt was written"),
                "\(migrate.err)")
    }

    @Test("--absent null keeps an optional attribute without a key empty; a required one still takes its default, said")
    func absentNull() throws {
        let (folder, model) = try absentFixture("cli-absent-null")
        let json = folder + "/in.json"
        try Data(#"[{"k":"a"},{"k":"b","od":1.5,"os":"x","n":2}]"#.utf8).write(to: URL(fileURLWithPath: json))
        let run = try ferry("import", json, "--model", model, "--entity", "Rec", "--out", folder + "/a.sqlite", "--absent", "null")
        #expect(run.status == 0, "\(run.err)")
        #expect(run.err.split(separator: "\n").filter { $0.hasPrefix("note:") }
            == ["note: Rec.n: 1 record had no key; the model's default 7 was written"], "\(run.err)")
        #expect(try records(folder + "/a.sqlite") == ["a,,,7", "b,1.5,x,2"])
    }

    @Test("a plist export (which leaves NULLs out) imported again gives back the store's NULLs, not the model's defaults")
    func plistExportRoundTrip() throws {
        let (folder, model) = try absentFixture("cli-absent-export")
        let json = folder + "/in.json"
        try Data(#"[{"k":"a","od":null,"os":null},{"k":"b","od":1.5,"os":"x"}]"#.utf8).write(to: URL(fileURLWithPath: json))
        #expect(try ferry("import", json, "--model", model, "--entity", "Rec", "--out", folder + "/a.sqlite").status == 0)
        for format in ["plist", "bplist"] {
            let export = try ferry("export", folder + "/a.sqlite", "--out", folder + "/e-" + format, "--format", format)
            #expect(export.status == 0, "\(export.err)")
            let again = try ferry("import", folder + "/e-\(format)/Rec.\(format)", "--model", model, "--entity", "Rec",
                                  "--out", folder + "/b-\(format).sqlite")
            #expect(again.status == 0 && !again.err.contains("note:"), "\(again.err)")
            #expect(try records(folder + "/b-\(format).sqlite") == ["a,,,7", "b,1.5,x,7"], "\(format)")
        }
    }
}
