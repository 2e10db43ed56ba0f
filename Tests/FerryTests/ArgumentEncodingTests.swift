import FerryTestSupport
import Foundation
import Testing

/// Arguments that are not valid UTF-8 were repaired to U+FFFD without a word: `update --set`
/// stored "A\u{FFFD}B" with exit 0, and a `--where` matched rows holding U+FFFD.
@Suite("arguments that are not UTF-8")
struct ArgumentEncodingTests {
    @Test("an argument that is not valid UTF-8 is refused (exit 2) before anything is read or written")
    func refused() throws {
        let folder = try TestPaths.temporaryFolder("argument-encoding")
        try "fileName,fileSize\na.jpg,1\n".write(toFile: folder + "/a.csv", atomically: true, encoding: .utf8)
        let model = TestPaths.migrations + "/Workspace.xcdatamodeld"
        let imported = try FerryProcess.run(["import", folder + "/a.csv", "--model", model, "--model-version", "Workspace 1",
                                             "--entity", "UploadEntity", "--out", folder + "/u.sqlite"])
        #expect(imported.status == 0, "\(imported.err)")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/u.sqlite"))
        let update = try FerryProcess.shell("ferry update u.sqlite --entity UploadEntity --where 'fileName == \"a.jpg\"' "
            + "--set \"fileName=$(printf 'A\\377B')\"", in: folder)
        #expect(update.status == 2, "\(update.err)")
        #expect(update.err.contains("argument 8 is not valid UTF-8 (bytes 66 69 6c 65 4e 61 6d 65 3d 41 ff 42)"), "\(update.err)")
        let delete = try FerryProcess.shell("ferry delete u.sqlite --entity UploadEntity --where \"fileName == '$(printf 'a\\376')'\"", in: folder)
        #expect(delete.status == 2, "\(delete.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/u.sqlite")) == before)
    }
}
