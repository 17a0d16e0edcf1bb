// swift-tools-version: 6.2
// swift-jsonapi's concurrency check. Licensed under the Apache License, Version 2.0 (see ../../LICENSE).
import PackageDescription

// `jsonapi-concurrency-check`: concurrent reads and parses, and concurrent use of the client's
// resource store, run under ThreadSanitizer by scripts/tsan
// (`swift build --package-path Tests/Concurrency -c release --sanitize=thread`). A package of its
// own, so that the library's manifest lists only what its users depend on; it uses the library
// through its products.
let package = Package(
    name: "swift-jsonapi-concurrency-check",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "swift-jsonapi", path: "../..")],
    targets: [
        .executableTarget(
            name: "jsonapi-concurrency-check",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIClient", package: "swift-jsonapi"),
            ],
            path: "Check"
        )
    ],
    swiftLanguageModes: [.v6]
)
