// Imports the legacy uploads of Ferry's fixtures into a Workspace 1 store, migrates that store
// and the legacy tasks to Workspace 3, and verifies the result on its own.
//
//     swift run ImportAndVerify PACKAGE_ROOT OUTPUT_FOLDER
//
// PACKAGE_ROOT is Ferry's checkout (for Fixtures/ and Migrations/); OUTPUT_FOLDER must exist.
import Ferry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ImportAndVerify PACKAGE_ROOT OUTPUT_FOLDER")
    exit(2)
}
let root = arguments[1], output = arguments[2]
let model = root + "/Migrations/Workspace.xcdatamodeld"

do {
    // 1. Legacy CSV into a store of the oldest version. Rejected rows are counted, not fatal.
    let imported = try ImportJob(request: ImportRequest(
        sources: [root + "/Fixtures/legacy/uploads.csv"], modelPath: model, modelVersion: "Workspace 1",
        entity: "UploadEntity", outputPath: output + "/Uploads.sqlite", existingStore: .replace)).run()
    print("imported \(imported.entity): read \(imported.read), written \(imported.written), rejected \(imported.rejected)")

    // 2. That store and the legacy tasks, through every version to the current one. Task
    //    attachments name uploads by path; tags are found or created by name.
    var files = FileRecordSource()
    files.linkAttributes = ["attachments": "remotePath", "tags": "name"]
    let migration = try MigrateJob(request: MigrateRequest(
        sources: [MigrationSource(path: output + "/Uploads.sqlite", kind: .store),
                  MigrationSource(path: root + "/Fixtures/legacy/tasks.json", kind: .file(entity: "Task", version: nil))],
        modelPath: model, outputPath: output + "/Workspace.sqlite", replaceExisting: true, files: files,
        variables: ["zone": "UTC"])).run()
    print("migrated: \(ChainText.ways(migration.chains))")
    for (entity, count) in migration.written.sorted(by: { $0.key < $1.key }) { print("  \(entity): \(count) written") }
    print("  rejected: \(migration.rejected)")

    // 3. An independent check of the new store, against the model version it claims to be.
    let bundle = try XcodeModelLoader.loadBundle(at: model)
    let report = try StoreVerifier(path: output + "/Workspace.sqlite", model: .bundle(bundle)).verify()
    let checks = report.sections.reduce(0) { $0 + $1.checks }
    print(report.passed ? "verified: \(checks) checks hold" : "verification failed: \(report.failures.count) of \(checks) checks")
    exit(report.passed ? 0 : 5)
} catch {
    print("failed: \(error)")
    exit(3)
}
