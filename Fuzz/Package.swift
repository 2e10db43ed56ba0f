// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The main package is the folder above; SwiftPM names a path dependency after its folder, which
/// differs between clones.
let ferryPackage = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent

/// libFuzzer targets for Ferry's parsers, apart from the main package so that `swift build` and
/// `swift test` never see them: this executable has no `main` (libFuzzer brings it), and links
/// only when built with `-sanitize=fuzzer`. Build and run with `Fuzz/run.sh` (see README.md here).
let package = Package(
    name: "FerryFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "FerryFuzz", dependencies: [.product(name: "Ferry", package: ferryPackage)]),
    ],
    swiftLanguageModes: [.v6]
)
