// swift-tools-version: 6.2
// swift-jsonapi's fuzz targets. Licensed under the Apache License, Version 2.0 (see ../../LICENSE).
import PackageDescription

// `jsonapi-fuzz`, the libFuzzer driver (Driver/) over the checks (Checks/), built by scripts/fuzz
// (`swift build --package-path Tests/Fuzz -c release -Xswiftc -sanitize=fuzzer,address`). A
// package of its own, so that the library's manifest lists only what its users depend on; it uses
// the library through its products. The library's own tests compile the same checks (target
// JSONAPIFuzzChecks of the library's manifest) to replay the committed inputs.
let package = Package(
    name: "swift-jsonapi-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "swift-jsonapi", path: "../..")],
    targets: [
        .target(
            name: "JSONAPIFuzzChecks",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIYajl", package: "swift-jsonapi"),
            ],
            path: "Checks"
        ),
        .executableTarget(name: "jsonapi-fuzz", dependencies: ["JSONAPIFuzzChecks"], path: "Driver"),
    ],
    swiftLanguageModes: [.v6]
)
