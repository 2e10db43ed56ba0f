import Ferry
import FerryFixtures
import FerryFormats
import Foundation

/// The temp folder a run works in, the binaries it compares, and the datasets it generated.
///
/// Datasets are generated once per run (the first benchmark that needs one pays for it, untimed)
/// with the same generator `ferry generate` uses, so the files are byte-identical to
/// `ferry generate uploads --count N --clean --seed 1`.
final class Workspace {
    /// The temp folder (absolute, no trailing slash).
    let folder: String
    /// The release `ferry` binary next to the driver.
    let ferry: String
    /// The package root (holds `Migrations/`).
    let repository: String
    /// Records per dataset.
    let rows: Int
    /// The seed every dataset is generated with (the `ferry generate` default).
    let seed: UInt64 = 1

    private var generated: Set<String> = []

    init(folder: String, ferry: String, repository: String, rows: Int) {
        self.folder = folder
        self.ferry = ferry
        self.repository = repository
        self.rows = rows
    }

    /// The absolute path of `name` in the temp folder.
    func path(_ name: String) -> String { folder + "/" + name }

    /// The Workspace model bundle of the repository.
    var workspaceModel: String { repository + "/Migrations/Workspace.xcdatamodeld" }

    /// Where `cleanUploads(format)` puts its file.
    func cleanUploadsPath(_ format: FixtureFormat) -> String {
        path("uploads-clean.\(format.fileExtension)")
    }

    /// `rows` clean upload records in `format` (generated on first use); returns the path.
    @discardableResult
    func cleanUploads(_ format: FixtureFormat) throws -> String {
        try generateUploads(at: cleanUploadsPath(format), format: format, rates: .none)
    }

    /// Where `smallUploads(format)` puts its file.
    func smallUploadsPath(_ format: FixtureFormat) -> String {
        path("uploads-small.\(format.fileExtension)")
    }

    /// `rows` clean upload records without thumbnails in `format`: the small-record shape most
    /// tables have (generated on first use); returns the path.
    @discardableResult
    func smallUploads(_ format: FixtureFormat) throws -> String {
        try generateUploads(at: smallUploadsPath(format), format: format, rates: .noneWithoutThumbnails)
    }

    private func generateUploads(at target: String, format: FixtureFormat, rates: UploadQuirkRates) throws -> String {
        if generated.contains(target) { return target }
        let file = try FileByteSink(path: target)
        var writer = FixtureWriter<UploadRecord, ClosureByteSink>(
            format: format, sink: ClosureByteSink { chunk in try file.write(chunk) })
        try writer.write(contentsOf: try UploadRecordGenerator(seed: seed, count: rows, rates: rates))
        try writer.finish()
        try file.close()
        generated.insert(target)
        return target
    }

    /// Where `cReference(_:)` builds a C-speed bound.
    func cReferencePath(_ loop: CReferenceLoop) -> String { path(loop.rawValue) }

    /// Builds `Benchmarks/Reference/<loop>.c` with the system compiler, once per run; returns the
    /// binary's path.
    @discardableResult
    func cReference(_ loop: CReferenceLoop) throws -> String {
        let target = cReferencePath(loop)
        if generated.contains(target) { return target }
        _ = try ChildProcess.run(["cc", "-O2", "-o", target, repository + "/Benchmarks/Reference/\(loop.rawValue).c", "-lsqlite3"],
                                 logPrefix: path("build-\(loop.rawValue)"))
        generated.insert(target)
        return target
    }

    /// Where `uploadStore()` puts its store.
    var uploadStorePath: String { path("uploads-store.sqlite") }

    /// A Workspace 1 store holding the clean upload records (imported in-process on first use,
    /// with the same job `ferry import` runs); returns the path.
    @discardableResult
    func uploadStore() throws -> String {
        try importUploads(try cleanUploads(.csv), into: uploadStorePath)
    }

    /// Where `smallUploadStore()` puts its store.
    var smallUploadStorePath: String { path("uploads-small-store.sqlite") }

    /// A Workspace 1 store holding the small upload records (no thumbnails), made like
    /// `uploadStore()`; returns the path.
    @discardableResult
    func smallUploadStore() throws -> String {
        try importUploads(try smallUploads(.csv), into: smallUploadStorePath)
    }

    /// Where `smallUploadExport()` puts its folder.
    var smallUploadExportPath: String { path("uploads-small-export") }

    /// A CSV export of `smallUploadStore()` (with the store's fingerprints, as `ferry export`
    /// writes by default), made in-process once per run, untimed.
    func smallUploadExport() throws -> String {
        let target = smallUploadExportPath
        if generated.contains(target) { return target }
        try? FileManager.default.removeItem(atPath: target)
        _ = try ExportJob(request: ExportRequest(storePath: try smallUploadStore(), outputFolder: target, format: .csv,
                                                 modelPath: workspaceModel)).run()
        generated.insert(target)
        return target
    }

    private func importUploads(_ source: String, into target: String) throws -> String {
        if generated.contains(target) { return target }
        try? FileManager.default.removeItem(atPath: target)
        let request = ImportRequest(
            sources: [source], modelPath: workspaceModel, modelVersion: "Workspace 1",
            entity: "UploadEntity", outputPath: target)
        let summary = try ImportJob(request: request).run()
        guard summary.written == rows else {
            throw RunFailure(description: "\(target): \(summary.written) of \(rows) upload records imported")
        }
        generated.insert(target)
        return target
    }

    /// The size of a file in bytes.
    func size(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Removes a file of the workspace if present.
    func remove(_ name: String) {
        try? FileManager.default.removeItem(atPath: path(name))
    }
}

extension FixtureFormat {
    var fileExtension: String {
        switch self {
        case .csv: return "csv"
        case .ndjson: return "ndjson"
        case .jsonArray: return "json"
        case .xmlPlist: return "plist"
        }
    }
}

/// The C loops in `Benchmarks/Reference/` that bound what Ferry's hot paths could cost.
enum CReferenceLoop: String {
    /// Parse upload CSV rows and insert each with one prepared statement, in one transaction.
    case csvInsert = "csv_insert_loop"
    /// Step a `SELECT *` of one table to its end, copying every text and blob out.
    case storeRead = "store_read_loop"
}
