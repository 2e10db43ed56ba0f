import FerryTestSupport
import Foundation
import Testing

/// README "Use from Swift": `Examples/ImportAndVerify` is a package of its own that depends on
/// this one by path. It is built here the way a user builds it (in a scratch folder of its own,
/// so from scratch: slow), run on the bundled fixtures, and its output compared with the README.
@Suite("the example package builds against the Ferry product and prints what the README shows")
struct ExamplePackageTests {
    /// The block the README shows after "It prints".
    private func readmeOutput() throws -> String {
        let readme = String(decoding: try TestPaths.read(TestPaths.packageRoot + "/README.md"), as: UTF8.self)
        let section = try #require(readme.range(of: "It prints (")).upperBound
        let open = try #require(readme.range(of: "```\n", range: section..<readme.endIndex)).upperBound
        let close = try #require(readme.range(of: "```", range: open..<readme.endIndex)).lowerBound
        return String(readme[open..<close])
    }

    @Test("swift build --package-path Examples/ImportAndVerify, then run on the fixtures; the store it wrote verifies on its own")
    func buildAndRun() throws {
        let scratch = try TestPaths.temporaryFolder("example-build")
        let output = try TestPaths.temporaryFolder("example-run")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let build = try FerryProcess.shell("swift build --package-path Examples/ImportAndVerify --scratch-path '\(scratch)'",
                                           in: TestPaths.packageRoot)
        try #require(build.status == 0, "\(build.out)\n\(build.err)")
        let run = try FerryProcess.shell("'\(scratch)/debug/ImportAndVerify' . '\(output)'", in: TestPaths.packageRoot)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == (try readmeOutput()))
        let verify = try FerryProcess.run(["verify", output + "/Workspace.sqlite", "--model", "Migrations/Workspace.xcdatamodeld"])
        #expect(verify.status == 0 && verify.out.contains("checks hold"), "\(verify.out)\(verify.err)")
    }
}
