import FerryTestSupport
import Foundation

/// Runs the built `ferry` command as a user would: as a child process, or inside a shell command
/// line with `ferry` on the `PATH`. Output goes through files, so neither stream can fill a pipe
/// while the other is read.
enum FerryProcess {
    struct Result {
        let status: Int32
        let out: String
        let err: String
    }

    /// The `ferry` binary built next to the test bundle.
    static let binary: String = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("ferry").path
    }()

    /// `ferry ARGUMENTS` in `directory` (the package root unless given), `stdin` on its standard input.
    static func run(_ arguments: [String], stdin: String? = nil, in directory: String = TestPaths.packageRoot) throws -> Result {
        try launch(binary, arguments, stdin: stdin, in: directory, environment: [:])
    }

    /// `/bin/sh -c COMMAND` in `directory`, with the folder of the built `ferry` first on the `PATH`.
    static func shell(_ command: String, in directory: String) throws -> Result {
        let folder = URL(fileURLWithPath: binary).deletingLastPathComponent().path
        let path = folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try launch("/bin/sh", ["-c", command], stdin: nil, in: directory, environment: ["PATH": path])
    }

    private static func launch(_ executable: String, _ arguments: [String], stdin: String?, in directory: String,
                               environment: [String: String]) throws -> Result {
        let outputs = try TestPaths.temporaryFolder("process")
        defer { try? FileManager.default.removeItem(atPath: outputs) }
        let outPath = outputs + "/out", errPath = outputs + "/err"
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var variables = ProcessInfo.processInfo.environment
        variables["NO_COLOR"] = "1"
        variables.merge(environment) { _, given in given }
        process.environment = variables
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus, out: String(decoding: try TestPaths.read(outPath), as: UTF8.self),
                      err: String(decoding: try TestPaths.read(errPath), as: UTF8.self))
    }
}
