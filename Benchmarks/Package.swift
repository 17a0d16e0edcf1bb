// swift-tools-version: 6.2
// swift-jsonapi's benchmarks. Licensed under the Apache License, Version 2.0 (see ../LICENSE).
import PackageDescription

// A package of its own, beside the library's, as swift-nio keeps its benchmarks: the library's
// manifest lists only what its users depend on, a `swift build` of the library never resolves or
// compiles the benchmark harness, and the benchmarks build in release in their own scratch path
// (scripts/bench, scripts/bench-gate, scripts/client-bench and scripts/stream-bench run them with
// `--package-path Benchmarks`). They use the library through its products, as a user's code does.
let package = Package(
    name: "swift-jsonapi-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // The generated documents' typed models use `@ResourceReadable` (Macros); the client's
        // end-to-end benchmark reaches the server through AsyncHTTPClient as well. With CLI, the
        // release `jsonapi` that scripts/test checks builds here too, beside the benchmarks,
        // from the same release build of the library.
        // The SQL benchmark serves the resource layer on PostgreSQL with Hummingbird (SQL,
        // Hummingbird); only scripts/sql-bench builds its product.
        .package(
            name: "swift-jsonapi", path: "..", traits: ["Macros", "AsyncHTTPClient", "CLI", "SQL", "Hummingbird"]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // The ordo-one/benchmark suite: time, allocations and peak memory of every read and write
        // path against Foundation (scripts/bench), and the allocation gate (scripts/bench-gate).
        .executableTarget(
            name: "JSONAPIBenchmarks",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIYajl", package: "swift-jsonapi"),
                .product(name: "JSONAPIGenerator", package: "swift-jsonapi"),
                .product(name: "JSONAPIGeneratorModels", package: "swift-jsonapi"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "JSONAPIBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The client end to end (scripts/client-bench): a large compound document served over
        // loopback by one process, fetched and decoded into typed models by another, through each
        // transport, streamed or collected, against JSONDecoder.
        .executableTarget(
            name: "jsonapi-client-benchmark",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIClient", package: "swift-jsonapi"),
                .product(name: "JSONAPIAsyncHTTPClient", package: "swift-jsonapi"),
                .product(name: "JSONAPIGenerator", package: "swift-jsonapi"),
                .product(name: "JSONAPIGeneratorModels", package: "swift-jsonapi"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "ClientBenchmark"
        ),
        // The resource stream against the in-memory parser and JSONDecoder, one process per
        // variant (scripts/stream-bench).
        .executableTarget(
            name: "jsonapi-stream-benchmark",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIGenerator", package: "swift-jsonapi"),
                .product(name: "JSONAPIGeneratorModels", package: "swift-jsonapi"),
            ],
            path: "StreamBenchmark"
        ),
        // A read through the server's resource layer beside the cost of its ETag, in one process
        // (scripts/server-bench).
        .executableTarget(
            name: "jsonapi-server-benchmark",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIServer", package: "swift-jsonapi"), "Timing",
            ],
            path: "ServerBenchmark"
        ),
        // What the client adds around the transport per request (interceptors, its cache), and
        // the store's merge per resource, in one process (scripts/client-overhead).
        .executableTarget(
            name: "jsonapi-client-overhead",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIClient", package: "swift-jsonapi"), "Timing",
            ],
            path: "ClientOverhead"
        ),
        // The resource layer on PostgreSQL against a hand-written Hummingbird endpoint running the
        // same statements into `Codable` structs (scripts/sql-bench).
        .executableTarget(
            name: "jsonapi-sql-benchmark",
            dependencies: [
                .product(name: "JSONAPI", package: "swift-jsonapi"),
                .product(name: "JSONAPIServer", package: "swift-jsonapi"),
                .product(name: "JSONAPISQL", package: "swift-jsonapi"),
                .product(name: "JSONAPIHummingbird", package: "swift-jsonapi"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "SQLBenchmark"
        ),
        // Medians and minimums of repeated calls, for the in-process benchmarks above.
        .target(name: "Timing", path: "Timing"),
    ],
    swiftLanguageModes: [.v6]
)
