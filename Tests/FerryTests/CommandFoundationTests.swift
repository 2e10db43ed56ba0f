import FerryTestSupport
import Foundation
import Testing

/// The `ferry` command starts light: it uses FoundationEssentials, never the whole Foundation,
/// which loads `libFoundation.so` into every run (3.8 MB more resident memory at start, and in
/// every benchmark's peak). A file that imported it slipped in once, unseen by any other test.
@Suite("the ferry command's imports")
struct CommandFoundationTests {
    @Test("no source file of the ferry command imports Foundation itself")
    func noFullFoundation() throws {
        let folder = TestPaths.packageRoot + "/Sources/ferry"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        let importing = try files.filter { file in
            try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n").contains { $0 == "import Foundation" }
        }
        #expect(importing.isEmpty, "\(importing.sorted())")
    }
}
