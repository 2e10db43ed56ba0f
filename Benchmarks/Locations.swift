import Foundation

/// Finds the `ferry` binary next to the driver and the package root above it.
enum Locations {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// The folder of the running driver, symlinks resolved (from `/proc/self/exe`).
    static func driverFolder() throws -> String {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return (executable as NSString).deletingLastPathComponent
    }

    /// `ferry` in the driver's folder.
    static func ferryBinary(in folder: String) throws -> String {
        let path = folder + "/ferry"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw Missing(description: "no ferry binary at \(path): build both with `swift build -c release`")
        }
        return path
    }

    /// The nearest folder above `folder` holding `Package.swift` and `Migrations/`, else the
    /// package this source file was compiled from.
    static func repository(above folder: String) throws -> String {
        var url = URL(fileURLWithPath: folder)
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        while url.path != "/" {
            if isPackageRoot(url) { return url.path }
            url.deleteLastPathComponent()
        }
        if isPackageRoot(sourceRoot) { return sourceRoot.path }
        throw Missing(description: "cannot find the package root (Package.swift and Migrations/) above \(folder)")
    }

    private static func isPackageRoot(_ url: URL) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
            && FileManager.default.fileExists(atPath: url.appendingPathComponent("Migrations/Workspace.xcdatamodeld").path)
    }

    /// A new folder under the system temp folder.
    static func makeTemporaryFolder() throws -> String {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")
        var template = Array((base + "/ferry-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Missing(description: "cannot create a temp folder under \(base): \(String(cString: strerror(errno)))")
        }
        return String(cString: made)
    }
}
