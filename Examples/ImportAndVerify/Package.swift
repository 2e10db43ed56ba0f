// swift-tools-version:6.0
import PackageDescription

/// Ferry used as a library: import legacy files into a store, migrate it, verify the result.
let package = Package(
    name: "ImportAndVerify",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Ferry", path: "../..")],
    targets: [
        .executableTarget(name: "ImportAndVerify", dependencies: [.product(name: "Ferry", package: "Ferry")]),
    ],
    swiftLanguageModes: [.v6]
)
