@testable import Ferry
import FerryFormats
import FerryTestSupport
import Foundation
import Testing

/// A backup's files are read from the descriptors their check opened (`CheckedBackup`): a file
/// renamed over a checked one before the records are read (a restore read a file its digest
/// check never saw, exit 0) or written over in place is never read as the checked file.
@Suite("a backup's files read as they were checked")
struct CheckedBackupTests {
    /// An export of the workspace store in `format`: its folder, and the names of the files of
    /// its tasks and of its tags.
    private func export(_ name: String, format: ExportFormat) throws -> (out: String, file: String, other: String) {
        let folder = try TestPaths.temporaryFolder(name)
        let store = try ExportTestSupport.workspace2Store(folder)
        let manifest = try ExportJob(request: ExportRequest(storePath: store, outputFolder: folder + "/out", format: format)).run()
        return (folder + "/out", try #require(manifest.file(for: "Task")).file, try #require(manifest.file(for: "Tag")).file)
    }

    /// Every record of `file` by `Z_PK`, read to the end; the error that ended the read, if any.
    private func records(of file: FileByteSource, format: ExportFormat) -> (keys: [String], error: ExportError?) {
        var keys: [String] = []
        do {
            let reader = try ExportFileReader(file, format: format)
            while let record = try reader.nextRecord() { keys.append("\(record["Z_PK"].map { "\($0)" } ?? "none")") }
            return (keys, nil)
        } catch {
            return (keys, error)
        }
    }

    @Test("a file renamed over a checked one is not read: the checked file's records are, and the swap is named", arguments: [ExportFormat.ndjson, .csv])
    func renamedOver(format: ExportFormat) throws {
        let (out, name, other) = try export("checked-renamed-\(format)", format: format)
        let path = out + "/" + name
        let expected = records(of: try FileByteSource(path: path), format: format)
        #expect(expected.error == nil && expected.keys.count == 50)
        let checked = try ExportVerifier.check(folder: out, countRecords: true)
        let file = try #require(checked.files["Task"])
        // Another file, of other records (the tags'), renamed over the checked one after its check.
        try FileManager.default.copyItem(atPath: out + "/" + other, toPath: out + "/.swapped")
        #expect(rename(out + "/.swapped", path) == 0)
        let read = records(of: file, format: format)
        #expect(read.keys == expected.keys)
        #expect(read.error?.description.contains("changed while it was read") == true)
    }

    @Test("a checked file written over in place before its records are read is refused, not read as checked")
    func writtenInPlace() throws {
        let (out, name, _) = try export("checked-in-place", format: .ndjson)
        let checked = try ExportVerifier.check(folder: out, countRecords: true)
        let file = try #require(checked.files["Task"])
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: out + "/" + name))
        try handle.write(contentsOf: Data("{\"Z_PK\":7".utf8))
        try handle.close()
        #expect(records(of: file, format: .ndjson).error != nil)
    }

    @Test("each entity's file is checked and handed back at its first byte, for every format", arguments: ExportFormat.allCases)
    func fromFirstByte(format: ExportFormat) throws {
        let (out, _, _) = try export("checked-first-byte-\(format)", format: format)
        let checked = try ExportVerifier.check(folder: out, countRecords: true)
        #expect(Set(checked.files.keys) == Set(checked.manifest.entities.map(\.entity)))
        for entry in checked.manifest.entities {
            let read = records(of: try #require(checked.files[entry.entity]), format: format)
            #expect(read.error == nil && read.keys.count == entry.count, "\(entry.file)")
        }
    }
}
