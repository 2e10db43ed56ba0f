// swift-tools-version:6.0
import PackageDescription

/// Ferry: move Core Data era records between formats and model versions, and prove nothing was lost.
/// Dependencies point one way: ferry → Ferry → FerryMigration/FerryVerify → FerryStore → FerryModel → FerryFormats → C shims;
/// FerryPostgres (a connection layer over libpq, no models) sits beside them, used by Ferry, and uses only FerryFormats'
/// worker threads.
/// FerryFormats is the lowest layer (raw values of files, no models), so the model loader can use its XML and plist code.
let package = Package(
    name: "Ferry",
    // macOS 15: Synchronization's Mutex (readers, the verifier) needs it. Linux is implicit.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Ferry", targets: ["Ferry"]),
        .executable(name: "ferry", targets: ["ferry"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .systemLibrary(name: "CSystemCalls"),

        .target(name: "FerryModel", dependencies: ["FerryFormats", "CCrypto"]),
        .target(name: "FerryFormats", dependencies: ["CLibXML2", "CZlib", "CSystemCalls"]),
        .target(name: "FerryStore", dependencies: ["FerryModel", "FerryFormats", "CSQLite"]),
        .target(name: "FerryMigration", dependencies: ["FerryModel", "FerryFormats", "FerryStore"]),
        .target(name: "FerryVerify", dependencies: ["FerryModel", "FerryFormats", "FerryStore"]),
        .target(name: "FerryFixtures", dependencies: []),
        .target(name: "FerryPostgres", dependencies: ["CLibPQ", "FerryFormats"]),
        .target(name: "Ferry", dependencies: ["FerryModel", "FerryFormats", "FerryStore", "FerryMigration", "FerryVerify", "FerryFixtures", "FerryPostgres"]),
        .executableTarget(name: "ferry", dependencies: ["Ferry", "FerryModel", "FerryFormats", "FerryStore", "FerryMigration", "FerryVerify", "FerryFixtures", "FerryPostgres"]),
        .executableTarget(
            name: "FerryBenchmarks",
            dependencies: ["Ferry", "FerryModel", "FerryFormats", "FerryStore", "FerryMigration", "FerryFixtures", "FerryTestSupport"],
            path: "Benchmarks",
            exclude: ["README.md", "Reference"]),

        .target(name: "FerryTestSupport", path: "Tests/FerryTestSupport"),
        // Apart from FerryTestSupport, which imports Foundation: Foundation's ICU module and the
        // ICU headers libxml2 brings in through FerryStore cannot meet in one module.
        .target(name: "FerryStoreTestSupport", dependencies: ["FerryStore"], path: "Tests/FerryStoreTestSupport"),
        .testTarget(name: "FerryModelTests", dependencies: ["FerryModel", "FerryFormats", "FerryTestSupport"]),
        .testTarget(name: "FerryFormatsTests", dependencies: ["FerryFormats", "FerryTestSupport"]),
        .testTarget(name: "FerryStoreTests", dependencies: ["FerryStore", "FerryModel", "FerryFormats", "FerryTestSupport"]),
        .testTarget(name: "FerryMigrationTests", dependencies: ["FerryMigration", "FerryFixtures", "FerryTestSupport", "FerryStoreTestSupport"]),
        .target(name: "FerryVerifyTestSupport", dependencies: ["FerryFormats", "FerryMigration", "FerryModel", "FerryStore", "FerryTestSupport"],
                path: "Tests/FerryVerifyTestSupport"),
        .testTarget(name: "FerryVerifyTests", dependencies: ["FerryVerify", "FerryStore", "FerryModel", "FerryTestSupport", "FerryVerifyTestSupport"]),
        .testTarget(name: "FerryPostgresTests", dependencies: ["FerryPostgres", "FerryTestSupport"]),
        .testTarget(name: "FerryTests", dependencies: ["Ferry", "FerryFixtures", "FerryPostgres", "FerryTestSupport", "FerryStoreTestSupport",
                                                     "FerryVerifyTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
