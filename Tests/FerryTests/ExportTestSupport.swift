import Ferry
import FerryModel
import FerryStore
import FerryTestSupport
import Foundation
import Testing

/// Stores to export, tools to read exports with, and a record-by-record comparison of stores.
enum ExportTestSupport {
    static let workspace = TestPaths.migrations + "/Workspace.xcdatamodeld"

    /// A Workspace 2 store made by `ferry import` from the legacy fixtures: uploads, tasks,
    /// tags (created while linking) and the links between them.
    static func workspace2Store(_ folder: String) throws -> String {
        let legacy = TestPaths.fixtures + "/legacy"
        let path = folder + "/Workspace2.sqlite"
        _ = try ImportJob(request: ImportRequest(
            sources: [legacy + "/uploads.csv", legacy + "/uploads.plist"], modelPath: workspace, modelVersion: "Workspace 2",
            entity: "Upload", outputPath: path)).run()
        _ = try ImportJob(request: ImportRequest(
            sources: [legacy + "/tasks.json", legacy + "/tasks.ndjson"], modelPath: workspace, modelVersion: "Workspace 2",
            entity: "Task", outputPath: path, existingStore: .append, files: FileRecordSource(linkAttributes: ["attachments": "remotePath", "tags": "name"]),
            createMissing: ["tags"])).run()
        return path
    }

    /// Corpus stores with their model (per the corpus README), relative to `corpus/coredata`.
    static let corpusStores: [(store: String, model: String)] = {
        let plus = "alemar11__CoreDataPlus/Tests/Resources/"
        let xcs = "richardpiazza__XCServerCoreData/"
        let wibosco = "wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld/"
        let wiboscoStores = "wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/"
        return [
            (wiboscoStores + "CoreDataMigration_Example_3.sqlite", wibosco + "CoreDataMigration_Example 3.xcdatamodel"),
            (wiboscoStores + "CoreDataMigration_Example_WAL.sqlite", wibosco + "CoreDataMigration_Example 4.xcdatamodel"),
            (plus + "SampleModel/Fixtures/SampleModel_V1.sqlite", plus + "SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel"),
            (plus + "SampleModel3/Fixtures/SampleModel3_V1.sqlite", plus + "SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel"),
            (xcs + "Tests/XCServerCoreData_2.0.1.sqlite", xcs + "Resources/XCServerCoreData.xcdatamodeld/XCServerCoreData2.0.1.xcdatamodel"),
        ].map { (TestPaths.corpus + "/coredata/" + $0.0, TestPaths.corpus + "/coredata/" + $0.1) }
    }()

    /// Every record (to-one order keys left out) and every to-many edge of a store, by entity,
    /// for comparing two stores. Unordered to-manys are sorted; ordered ones keep their order.
    static func contents(of path: String, modelPath: String) throws -> [String: String] {
        let store = try CoreDataStoreReader(path: path)
        let bundle = try XcodeModelLoader.loadBundle(at: modelPath)
        let model = try #require(bundle.versions.first {
            VersionHasher.hashes(of: $0).differingEntities(from: store.metadata.versionHashes).isEmpty
        })
        let reader = try store.records(model: model)
        var result: [String: String] = [:]
        for entity in model.entities where !entity.isAbstract {
            var lines: [String] = []
            let cursor = try reader.records(of: entity.name)
            while let record = try cursor.next() {
                guard record.entity == entity.name else { continue }
                let toOne = record.toOne.mapValues { "\($0.entity)#\($0.primaryKey)" }.sorted { $0.key < $1.key }
                lines.append("\(record.primaryKey) \(record.attributes.sorted { $0.key < $1.key }) \(toOne)")
            }
            for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
                var edges: [Int64: [Int64]] = [:]
                let cursor = try reader.edges(of: relationship.name, of: entity.name)
                while let edge = try cursor.next() { edges[edge.source, default: []].append(edge.destination) }
                for (source, destinations) in edges.sorted(by: { $0.key < $1.key }) {
                    lines.append("\(relationship.name) \(source) → \(relationship.isOrdered ? destinations : destinations.sorted())")
                }
            }
            result[entity.name] = lines.joined(separator: "\n")
        }
        return result
    }

    /// Runs `python3 -c script args…`; returns its standard output (trimmed), or nil without python3.
    static func python(_ script: String, _ arguments: [String]) throws -> String? {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 failed on \(arguments)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static var pythonAvailable: Bool {
        ["/usr/bin/python3", "/usr/local/bin/python3"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The `ferry` binary built next to the test bundle.
    static let binary = FerryProcess.binary

    /// Runs a shell command line (for `ulimit`); returns status and standard error.
    /// Runs `command` (a shell line) under `ulimit -n` raised from 5 until it finishes (exit 0 or
    /// 1), a sweep at a time, until one run leaves a check without a descriptor: which of the
    /// run's threads takes the last one varies. Every run that finishes is exit 0 with nothing
    /// said, or exit 1 saying `unchecked`. `before` runs before each try. Returns whether one did.
    static func sweepDescriptorLimits(_ command: String, unchecked: String, before: () -> Void = {}) throws -> Bool {
        for _ in 0..<20 {
            for limit in 5...24 {
                before()
                let run = try shell("ulimit -n \(limit); \(command)")
                guard run.status == 0 || run.status == 1 else { continue }
                #expect(run.status == 0 ? run.err.isEmpty : run.err.contains(unchecked), "ulimit -n \(limit): \(run.err)")
                if run.status == 1 { return true }
                break
            }
        }
        return false
    }

    static func shell(_ command: String) throws -> (status: Int32, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
