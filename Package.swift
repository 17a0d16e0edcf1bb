// swift-tools-version: 6.2
// swift-jsonapi: JSON:API 1.0 and 1.1 for Swift. Licensed under the Apache License, Version 2.0 (see LICENSE).
import CompilerPluginSupport
import PackageDescription

// The core library (`JSONAPI`) has no package dependencies (only its own C shim target). Everything that needs one (the
// command-line tool, the libyajl backend, the `@ResourceReadable` macro) lives in its own target, and the products
// that need a package are behind a package trait, so that a package depending on `JSONAPI` alone resolves and builds
// nothing else:
//
//   Macros   the JSONAPIMacros product (`@ResourceReadable`) and the generated documents' typed models: swift-syntax
//   CLI      the `jsonapi` command-line tool: swift-argument-parser
//   Hummingbird  the JSONAPIHummingbird adapter (and the example server's Hummingbird front): hummingbird
//   Vapor    the JSONAPIVapor adapter (and the example server's Vapor front): vapor
//   AsyncHTTPClient  the JSONAPIAsyncHTTPClient transport of the client: async-http-client
//   Testing  the JSONAPITesting product (model checks, document diffs, spec fixtures, generators): swift-property-based
//   OpenAPI  the JSONAPIOpenAPI product (JSON Schema components, parameters and operations): OpenAPIKit
//   SQL      the JSONAPISQL product (declared resources on SQLite or PostgreSQL): sql-kit, sqlite-kit,
//            postgres-kit
//
// The resource layer (JSONAPIServer: declared resources served with every endpoint) needs no package either; the
// adapters serve it.
//
// The client (JSONAPIClient: requests, routing, streaming parse, errors, the resource store and a
// URLSession transport) needs no package, so it is a product of its own without a trait.
//
// No trait is on by default. Building this package itself needs them all: `swift build --enable-all-traits` (the
// scripts pass it). The benchmarks, the libFuzzer driver and the ThreadSanitizer check are packages of their own
// (Benchmarks/, Tests/Fuzz/, Tests/Concurrency/) that use this one through its products.
let package = Package(
    name: "swift-jsonapi",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "JSONAPI", targets: ["JSONAPI"]),
        .library(name: "JSONAPIYajl", targets: ["JSONAPIYajl"]),
        .library(name: "JSONAPIMacros", targets: ["JSONAPIMacros"]),
        .library(name: "JSONAPIGenerator", targets: ["JSONAPIGenerator"]),
        .library(name: "JSONAPIGeneratorModels", targets: ["JSONAPIGeneratorModels"]),
        .executable(name: "jsonapi", targets: ["JSONAPICLI"]),
        .library(name: "JSONAPIHummingbird", targets: ["JSONAPIHummingbird"]),
        .library(name: "JSONAPIVapor", targets: ["JSONAPIVapor"]),
        .library(name: "JSONAPIServer", targets: ["JSONAPIServer"]),
        .library(name: "JSONAPIClient", targets: ["JSONAPIClient"]),
        .library(name: "JSONAPIAsyncHTTPClient", targets: ["JSONAPIAsyncHTTPClient"]),
        .library(name: "JSONAPITesting", targets: ["JSONAPITesting"]),
        .executable(name: "jsonapi-example-server", targets: ["JSONAPIExampleServer"]),
        .library(name: "JSONAPIOpenAPI", targets: ["JSONAPIOpenAPI"]),
        .library(name: "JSONAPISQL", targets: ["JSONAPISQL"]),
    ],
    traits: [
        .trait(name: "Macros", description: "The @ResourceReadable macro (JSONAPIMacros), which needs swift-syntax."),
        .trait(name: "CLI", description: "The jsonapi command-line tool, which needs swift-argument-parser."),
        .trait(
            name: "Hummingbird",
            description:
                "The Hummingbird 2 adapter (JSONAPIHummingbird) and the example server, which need hummingbird."
        ),
        .trait(
            name: "Vapor",
            description: "The Vapor 4 adapter (JSONAPIVapor) and the example server's Vapor front, which need vapor."
        ),
        .trait(
            name: "AsyncHTTPClient",
            description:
                "The client's AsyncHTTPClient transport (JSONAPIAsyncHTTPClient), which needs async-http-client."
        ),
        .trait(
            name: "Testing",
            description:
                "Helpers for testing code that uses JSONAPI (JSONAPITesting): model checks, document diffs, the spec's examples and property-based generators, which need swift-property-based."
        ),
        .trait(
            name: "OpenAPI",
            description:
                "OpenAPI 3.1 schemas, parameters and operations for models (JSONAPIOpenAPI), which need OpenAPIKit."
        ),
        .trait(
            name: "SQL",
            description:
                "Declared resources on a database (JSONAPISQL): SQLite embedded, PostgreSQL for services that share one, through SQLKit, which needs sql-kit, sqlite-kit and postgres-kit."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // `swift package generate-documentation` (scripts/docs runs it). A plugin only: no product uses
        // it, so a package that depends on this one never resolves it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/vapor", from: "4.122.3"),
        // The client's AsyncHTTPClient transport, and the Vapor tests' HTTP client.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/mattpolzin/OpenAPIKit", from: "6.4.0"),
        // JSONAPISQL: SQLKit and its SQLite and PostgreSQL drivers, and NIO's event loops they run on.
        .package(url: "https://github.com/vapor/sql-kit", from: "3.36.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/sqlite-kit", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit", from: "2.17.0"),
    ],
    targets: [
        .target(
            name: "JSONAPI",
            dependencies: ["CJSONAPISupport"],
            path: "Sources/JSONAPI",
            swiftSettings: [.strictMemorySafety()]
        ),
        // A cache prefetch hint for the index passes, which Swift cannot spell (header only).
        .target(name: "CJSONAPISupport", path: "Sources/CJSONAPISupport"),
        // The libyajl backend: Debian's libyajl-dev (yajl 2.1), found through pkg-config.
        .systemLibrary(
            name: "CYajl",
            path: "Sources/CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"]), .brew(["yajl"])]
        ),
        .target(name: "JSONAPIYajl", dependencies: ["JSONAPI", "CYajl"], path: "Sources/JSONAPIYajl"),
        // `@ResourceReadable`: writes a model's `init(from: ResourceReader)` (swift-syntax). Its tests
        // run the plugin as the compiler does, so swift-syntax is built once, for the compiler.
        .macro(
            name: "JSONAPIMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftDiagnostics", package: "swift-syntax", condition: .when(traits: ["Macros"])),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax", condition: .when(traits: ["Macros"])),
            ],
            path: "Sources/JSONAPIMacrosPlugin"
        ),
        .target(
            name: "JSONAPIMacros",
            dependencies: ["JSONAPI", "JSONAPIMacrosPlugin"],
            path: "Sources/JSONAPIMacros"
        ),
        // Generated documents, for the demo, the tool, tests and benchmarks. No macro: the
        // `jsonapi` tool builds without swift-syntax.
        .target(
            name: "JSONAPIGenerator",
            dependencies: ["JSONAPI"],
            path: "Sources/JSONAPIGenerator"
        ),
        // Typed models of the generated documents (`@ResourceReadable`), for tests and benchmarks.
        .target(
            name: "JSONAPIGeneratorModels",
            dependencies: ["JSONAPIGenerator", "JSONAPIMacros"],
            path: "Sources/JSONAPIGeneratorModels"
        ),
        .executableTarget(
            name: "JSONAPICLI",
            dependencies: [
                "JSONAPI",
                "JSONAPIYajl",
                "JSONAPIGenerator",
                .product(name: "ArgumentParser", package: "swift-argument-parser", condition: .when(traits: ["CLI"])),
            ],
            path: "Sources/JSONAPICLI"
        ),
        // Declared resources served with all of JSON:API, independent of any framework: a data
        // source protocol and an in-memory source, capabilities, hooks, validation, authorization,
        // conditional requests. No package dependency; the adapters below connect it to a framework.
        .target(name: "JSONAPIServer", dependencies: ["JSONAPI"], path: "Sources/JSONAPIServer"),
        // Serving JSON:API from Hummingbird 2: request bodies streamed into `DocumentParser`, responses
        // written as `application/vnd.api+json`, negotiation and error documents from the core.
        .target(
            name: "JSONAPIHummingbird",
            dependencies: [
                "JSONAPI", "JSONAPIServer",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ],
            path: "Sources/JSONAPIHummingbird"
        ),
        // Serving JSON:API from Vapor 4: the same capabilities through Vapor's content coders, an
        // `AsyncMiddleware` and streamed request bodies.
        .target(
            name: "JSONAPIVapor",
            dependencies: [
                "JSONAPI", "JSONAPIServer",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
            ],
            path: "Sources/JSONAPIVapor"
        ),
        // Consuming JSON:API services: the transport protocol, requests and routing, bodies parsed
        // as they stream, typed CRUD and pagination, the resource store, and a URLSession transport.
        .target(name: "JSONAPIClient", dependencies: ["JSONAPI"], path: "Sources/JSONAPIClient"),
        // The client's transport over AsyncHTTPClient: NIO's buffers fed to the parser as they arrive.
        .target(
            name: "JSONAPIAsyncHTTPClient",
            dependencies: [
                "JSONAPI", "JSONAPIClient",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])
                ),
            ],
            path: "Sources/JSONAPIAsyncHTTPClient"
        ),
        // For the tests of code that uses JSONAPI: checks of model shapes, document diffs,
        // literals, the specification's examples as fixtures, and generators of valid and
        // invalid documents (swift-property-based).
        .target(
            name: "JSONAPITesting",
            dependencies: [
                "JSONAPI",
                .product(name: "PropertyBased", package: "swift-property-based", condition: .when(traits: ["Testing"])),
            ],
            path: "Sources/JSONAPITesting"
        ),
        // OpenAPI 3.1 for JSON:API models (OpenAPIKit): JSON Schema components for resource objects,
        // compound documents, create and update bodies and error documents, the query parameters as
        // OpenAPI parameters, and operations for a type's routes.
        .target(
            name: "JSONAPIOpenAPI",
            dependencies: [
                "JSONAPI", "JSONAPIServer",
                .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: .when(traits: ["OpenAPI"])),
            ],
            path: "Sources/JSONAPIOpenAPI"
        ),
        // Declared resources on SQL databases (SQLKit): a data source per table, the mapping of a
        // model onto tables, every query parameter pushed down, writes in transactions. SQLite
        // embedded by default, PostgreSQL for services that share one database.
        .target(
            name: "JSONAPISQL",
            dependencies: [
                "JSONAPI", "JSONAPIServer",
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["SQL"])),
                .product(name: "SQLiteKit", package: "sqlite-kit", condition: .when(traits: ["SQL"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["SQL"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["SQL"])),
            ],
            path: "Sources/JSONAPISQL"
        ),
        // An in-memory JSON:API service (articles, people, comments, tags). The store and handlers are
        // framework-neutral; one front file per framework (`#if Hummingbird`, `#if Vapor`). A library
        // (not a product) so that the tests start it in-process.
        .target(
            name: "JSONAPIExample",
            dependencies: [
                "JSONAPI", "JSONAPIServer",
                // Each front only with its trait: a build with one framework (scripts/demo builds the
                // Hummingbird front alone) compiles nothing of the other.
                .target(name: "JSONAPIHummingbird", condition: .when(traits: ["Hummingbird"])),
                .target(name: "JSONAPIVapor", condition: .when(traits: ["Vapor"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                // The service's own OpenAPI document (`GET /openapi.json`), with the OpenAPI trait.
                .target(name: "JSONAPIOpenAPI", condition: .when(traits: ["OpenAPI"])),
                .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: .when(traits: ["OpenAPI"])),
                // The resources in SQLite (the default) or PostgreSQL, with the SQL trait.
                .target(name: "JSONAPISQL", condition: .when(traits: ["SQL"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["SQL"])),
            ],
            path: "Sources/JSONAPIExample"
        ),
        .executableTarget(
            name: "JSONAPIExampleServer",
            dependencies: ["JSONAPIExample"],
            path: "Sources/JSONAPIExampleServer"
        ),
        // The fuzz checks, for the test that replays the committed fuzz inputs. The libFuzzer
        // driver over the same checks is a package of its own (Tests/Fuzz/Package.swift), as is the
        // concurrency check run under ThreadSanitizer (Tests/Concurrency/Package.swift), and the
        // benchmarks (Benchmarks/Package.swift): none is built by `swift build` here.
        .target(name: "JSONAPIFuzzChecks", dependencies: ["JSONAPI", "JSONAPIYajl"], path: "Tests/Fuzz/Checks"),
        // The tests. The library's own need neither libyajl nor swift-syntax: `swift build --target
        // JSONAPICoreTests` builds neither. What needs one of them, or the built tool, has a target
        // of its own.
        //
        // Helpers and fixtures the test targets share. A test target rather than a library target: it
        // imports JSONAPI `@testable` (arena fingerprints and invariants), which a release build of a
        // library target could not, and nothing outside the tests should build it.
        .testTarget(
            name: "JSONAPITestSupport",
            dependencies: [
                "JSONAPI", "JSONAPIServer",
                // The databases the SQL tests run on (SQLTestDatabases.swift), with the SQL trait.
                .target(name: "JSONAPISQL", condition: .when(traits: ["SQL"])),
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["SQL"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["SQL"])),
            ],
            path: "Tests/Support"
        ),
        // Scanner, arena, parsing and rules, document views, decoding through `Decoder`, encoding
        // and writing, validation, the generators, and the differential tests against a reference
        // model.
        .testTarget(
            name: "JSONAPICoreTests",
            dependencies: [
                "JSONAPI", "JSONAPIGenerator", "JSONAPITestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/JSONAPICoreTests"
        ),
        // The libyajl backend against the scanner, and the fuzz targets' committed inputs (the fuzz
        // checks include the backends target).
        .testTarget(
            name: "JSONAPIYajlTests",
            dependencies: ["JSONAPI", "JSONAPIYajl", "JSONAPIGenerator", "JSONAPIFuzzChecks", "JSONAPITestSupport"],
            path: "Tests/JSONAPIYajlTests"
        ),
        // `@ResourceReadable`: the macro's expansions, the models it writes (the reader path against
        // the `Decoder` path) and the generated documents' models, which use it (swift-syntax).
        .testTarget(
            name: "JSONAPIMacrosTests",
            dependencies: [
                "JSONAPIMacros", "JSONAPIGenerator", "JSONAPIGeneratorModels", "JSONAPITestSupport",
            ],
            path: "Tests/JSONAPIMacrosTests"
        ),
        // The `jsonapi` tool, run as the built executable: `swift build --build-tests` builds it, and
        // the suites are skipped when it is absent.
        .testTarget(
            name: "JSONAPICLITests",
            dependencies: ["JSONAPI", "JSONAPIGenerator", "JSONAPITestSupport"],
            path: "Tests/JSONAPICLITests"
        ),
        // The resource layer against its declarations: every endpoint, status and rule, and a
        // reference model of the in-memory source.
        .testTarget(
            name: "JSONAPIServerTests",
            dependencies: ["JSONAPI", "JSONAPIServer", "JSONAPITestSupport"],
            path: "Tests/JSONAPIServerTests"
        ),
        // The SQL data source on SQLite (in memory and in files) and on a PostgreSQL server that
        // scripts/test starts: the service's answers against the in-memory source's, statements
        // counted, transactions, constraint failures, the database stopped mid-run.
        .testTarget(
            name: "JSONAPISQLTests",
            dependencies: [
                "JSONAPI", "JSONAPIServer", "JSONAPISQL", "JSONAPITestSupport",
                .product(name: "SQLKit", package: "sql-kit", condition: .when(traits: ["SQL"])),
                .product(name: "SQLiteKit", package: "sqlite-kit", condition: .when(traits: ["SQL"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["SQL"])),
            ],
            path: "Tests/JSONAPISQLTests"
        ),
        // The Hummingbird adapter and the example service, over a real loopback socket.
        .testTarget(
            name: "JSONAPIHummingbirdTests",
            dependencies: [
                "JSONAPI", "JSONAPIHummingbird", "JSONAPIExample", "JSONAPITestSupport",
                .target(name: "JSONAPIOpenAPI", condition: .when(traits: ["OpenAPI"])),
                .target(name: "JSONAPISQL", condition: .when(traits: ["SQL"])),
                .product(name: "PostgresKit", package: "postgres-kit", condition: .when(traits: ["SQL"])),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ],
            path: "Tests/JSONAPIHummingbirdTests"
        ),
        // The Vapor adapter and the example service's Vapor front, over a real loopback socket.
        .testTarget(
            name: "JSONAPIVaporTests",
            dependencies: [
                "JSONAPI", "JSONAPIVapor", "JSONAPIExample", "JSONAPITestSupport",
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Vapor"])),
            ],
            path: "Tests/JSONAPIVaporTests"
        ),
        // The testing product: model checks, diffs, literals, fixtures against the corpus, and
        // the generators' documents against the parser and the decoder.
        .testTarget(
            name: "JSONAPITestingTests",
            dependencies: [
                "JSONAPI", "JSONAPITesting",
                .product(name: "PropertyBased", package: "swift-property-based", condition: .when(traits: ["Testing"])),
            ],
            path: "Tests/JSONAPITestingTests"
        ),
        // The client against the example service over loopback, served by both fronts (Hummingbird,
        // Vapor) and reached through both transports.
        .testTarget(
            name: "JSONAPIClientTests",
            dependencies: [
                "JSONAPI", "JSONAPIClient", "JSONAPIAsyncHTTPClient", "JSONAPIExample", "JSONAPIGenerator",
                "JSONAPITestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Vapor", package: "vapor", condition: .when(traits: ["Vapor"])),
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])
                ),
            ],
            path: "Tests/JSONAPIClientTests"
        ),
        // The OpenAPI schemas: their structure, and the spec's examples checked against the schemas
        // generated for models of them by a reference JSON Schema validator (scripts/openapi-check).
        .testTarget(
            name: "JSONAPIOpenAPITests",
            dependencies: [
                "JSONAPI", "JSONAPIOpenAPI", "JSONAPIServer",
                .product(name: "OpenAPIKit", package: "OpenAPIKit", condition: .when(traits: ["OpenAPI"])),
            ],
            path: "Tests/JSONAPIOpenAPITests"
        ),
    ],
    swiftLanguageModes: [.v6]
)
