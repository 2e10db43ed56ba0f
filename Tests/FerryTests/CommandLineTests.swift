import FerryTestSupport
import Foundation
import Testing

/// Runs the built `ferry` command as a user would, and checks output and exit codes.
@Suite("the ferry command")
struct CommandLineTests {
    struct Run {
        let status: Int32
        let out: String
        let err: String
    }

    /// The `ferry` binary built next to the test bundle.
    private static let binary: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("ferry").path
    }()

    private func ferry(_ arguments: String..., stdin: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: TestPaths.packageRoot)
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
                   err: String(decoding: errData, as: UTF8.self))
    }

    @Test("the binary is built")
    func binaryExists() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary), "ferry not found at \(Self.binary)")
    }

    @Test("no arguments and unknown verbs are usage errors; --help and --version succeed")
    func usage() throws {
        #expect(try ferry().status == 2)
        let help = try ferry("--help")
        #expect(help.status == 0 && help.out.contains("inspect") && help.out.contains("import"))
        #expect(try ferry("frobnicate").status == 2)
        #expect(try ferry("import", "--nope").status == 2)
        #expect(try ferry("import", "x.csv", "--model").err.contains("--model needs a value"))
        let importHelp = try ferry("import", "--help")
        #expect(importHelp.status == 0 && importHelp.out.contains("--max-errors"))
        #expect(try ferry("--version").out.hasPrefix("ferry "))
    }

    @Test("inspect prints versions, entities and Core Data's base64 hashes; --json the same facts")
    func inspect() throws {
        let text = try ferry("inspect", "Migrations/Workspace.xcdatamodeld")
        #expect(text.status == 0)
        #expect(text.out.contains("version Workspace 3 (current)"))
        #expect(text.out.contains("entity Upload  renamed from UploadEntity"))
        #expect(text.out.contains("remotePath  String      optional  renamed from urlPath"))
        #expect(text.out.contains("→ Task      to-one    optional, inverse attachments, delete Nullify"))
        let json = try ferry("inspect", "Migrations/Workspace.xcdatamodeld", "--json")
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["currentVersion"] as? String == "Workspace 3")
        let versions = try #require(object["versions"] as? [[String: Any]])
        #expect(versions.map { $0["name"] as? String } == ["Workspace 1", "Workspace 2", "Workspace 3"])
        // Every hash the text shows is in the JSON too.
        for version in versions {
            for entity in try #require(version["entities"] as? [[String: Any]]) {
                let hash = try #require(entity["versionHash"] as? String)
                #expect(Data(base64Encoded: hash)?.count == 32)
                #expect(text.out.contains("hash \(hash)"))
            }
        }
    }

    @Test("inspect of a missing or hostile model exits 3 with the reason")
    func inspectBadInput() throws {
        let missing = try ferry("inspect", "/nonexistent/Model.xcdatamodeld")
        #expect(missing.status == 3 && missing.err.contains("/nonexistent/Model.xcdatamodeld"))
        let folder = try TestPaths.temporaryFolder("cli") + "/Evil.xcdatamodel"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><model>&x;</model>"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/contents"))
        let hostile = try ferry("inspect", folder)
        #expect(hostile.status == 3 && hostile.err.contains("entity declarations are not allowed"))
    }

    @Test("import: the README's main job, exit 1 with rejects, exit 4 on an existing store, --json summary")
    func importFixture() throws {
        let folder = try TestPaths.temporaryFolder("cli")
        let out = folder + "/Workspace.sqlite"
        let run = try ferry("import", "Fixtures/legacy/uploads.csv", "--model", "Migrations/Workspace.xcdatamodeld",
                            "--model-version", "Workspace 1", "--entity", "UploadEntity", "--out", out)
        #expect(run.status == 1)
        #expect(run.out.hasPrefix("UploadEntity (Workspace 1): read 34, written 31, rejected 3 → \(out)\nverified: "))
        #expect(run.err.contains("reject: Fixtures/legacy/uploads.csv:15: UploadEntity.fileType: 'abc' is not an integer"))
        let again = try ferry("import", "Fixtures/legacy/uploads.csv", "--model", "Migrations/Workspace.xcdatamodeld",
                              "--model-version", "Workspace 1", "--entity", "UploadEntity", "--out", out)
        #expect(again.status == 4 && again.err.contains("use --force"))
        let json = try ferry("import", "-", "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                             "--entity", "UploadEntity", "--out", folder + "/stdin.sqlite", "--json",
                             stdin: "fileName,time\na.png,1388538000\nb.png,1388538001\n")
        #expect(json.status == 0)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(summary["written"] as? Int == 2 && summary["rejected"] as? Int == 0)
    }

    @Test("generate is deterministic and feeds import")
    func generate() throws {
        let first = try ferry("generate", "uploads", "--count", "200", "--seed", "9")
        let second = try ferry("generate", "uploads", "--count", "200", "--seed", "9")
        #expect(first.status == 0 && first.out == second.out)
        #expect(first.out != (try ferry("generate", "uploads", "--count", "200", "--seed", "10").out))
        let folder = try TestPaths.temporaryFolder("cli")
        let csv = folder + "/u.csv"
        #expect(try ferry("generate", "uploads", "--count", "500", "--clean", "--out", csv).status == 0)
        let run = try ferry("import", csv, "--model", "Migrations/Workspace.xcdatamodeld", "--model-version", "Workspace 1",
                            "--entity", "UploadEntity", "--out", folder + "/u.sqlite")
        #expect(run.status == 0 && run.out.contains("read 500, written 500, rejected 0"))
    }
}
