import Foundation

extension Workspace {
    var uploadStorePath: String { path("uploads-store.sqlite") }

    /// A Workspace 1 store of the clean uploads, imported once per run (shared by the query and export benchmarks).
    func uploadStore() throws {
        guard !FileManager.default.fileExists(atPath: uploadStorePath) else { return }
        let csv = try cleanUploads(.csv)
        _ = try ChildProcess.run([ferry, "import", csv, "--model", workspaceModel, "--model-version", "Workspace 1",
                                  "--entity", "UploadEntity", "--out", uploadStorePath], logPrefix: path("upload-store-import"))
    }
}
