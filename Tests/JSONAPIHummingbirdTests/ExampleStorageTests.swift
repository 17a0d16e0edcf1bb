#if SQL
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import JSONAPI
    import JSONAPIHummingbird
    import PostgresKit
    import Testing

    @testable import JSONAPIExample
    @testable import JSONAPITestSupport

    /// Where the example service keeps its resources: `--database` values, a SQLite file that
    /// outlives the service, and the service on PostgreSQL through the checks every front passes.
    @Suite struct ExampleStorageTests {
        @Test func databaseOption() throws {
            guard case .memory = try ExampleStorage(parsing: "memory") else {
                Issue.record("memory")
                return
            }
            guard case .sqlite(nil) = try ExampleStorage(parsing: "sqlite") else {
                Issue.record("sqlite")
                return
            }
            guard case .sqlite("/tmp/a b.sqlite") = try ExampleStorage(parsing: "sqlite:/tmp/a b.sqlite") else {
                Issue.record("sqlite:PATH")
                return
            }
            guard
                case .postgres(let configuration, _) = try ExampleStorage(
                    parsing: "postgres://ada:p%40ss@db.local:6543/shop")
            else {
                Issue.record("postgres URL")
                return
            }
            #expect(configuration.host == "db.local")
            #expect(configuration.port == 6543)
            #expect(configuration.username == "ada")
            #expect(configuration.password == "p@ss")
            #expect(configuration.database == "shop")
            guard case .postgres(let defaults, _) = try ExampleStorage(parsing: "postgresql://ada@db.local") else {
                Issue.record("postgres URL without port and database")
                return
            }
            #expect(defaults.port == 5432)
            #expect(defaults.database == "ada")
            for bad in ["", "sqlite:", "mysql://ada@db/x", "postgres://db.local/x", "postgres://ada@/x", "Memory"] {
                #expect(throws: ExampleServer.InvalidOption.self, "\(bad)") { try ExampleStorage(parsing: bad) }
            }
        }

        /// Serves `service` on a loopback port for `body`, then closes its database.
        func serve(_ service: ExampleService, _ body: @Sendable (ExampleServiceScenario) async throws -> Void)
            async throws
        {
            let app = HummingbirdFront.application(
                service: service, port: 0, timeouts: JSONAPIServerTimeouts(idleTimeout: testServerIdleTimeout))
            do {
                try await app.test(.live) { client in
                    try await body(ExampleServiceScenario(port: try #require(client.port)))
                }
            } catch {
                await service.shutdown()
                throw error
            }
            await service.shutdown()
        }

        /// A service on a SQLite file seeds it once: a second service on the file serves what the
        /// first one left, writes included, and adds no seed again.
        @Test func sqliteFileOutlivesTheService() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jsonapi-example-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let storage = ExampleStorage.sqlite(path: folder.appendingPathComponent("example.sqlite").path)
            let created =
                #"{"data":{"type":"articles","id":"kept","attributes":{"title":"Kept","body":"b","createdAt":"2024-02-01T10:00:00Z"}}}"#
            try await serve(try await ExampleService(store: .seeded(articles: 12, seed: 7), storage: storage)) {
                try await $0.send("POST", "/articles", body: created, expect: 201)
                try await $0.send("DELETE", "/articles/3", expect: 204)
            }
            try await serve(try await ExampleService(store: .seeded(articles: 30, seed: 9), storage: storage)) {
                let list = try await $0.send("GET", "/articles?page[size]=100", expect: 200)
                #expect(list?.primaryResources.count == 12)
                #expect(list?.meta?["total"]?.int64Value == 12)
                let ids = Set(list?.primaryResources.map(\.id) ?? [])
                #expect(ids.contains("kept") && !ids.contains("3") && !ids.contains("13"))
            }
        }

        static var postgresAvailable: Bool { SQLTestDatabase.available.contains(.postgres) }

        /// The service on PostgreSQL, a schema of its own per check, through the checks every
        /// front passes on reads, writes, ids and links, and what its OpenAPI document promises.
        @Test(.enabled(if: postgresAvailable)) func exampleServiceOnPostgreSQL() async throws {
            let checks: [@Sendable (ExampleServiceScenario) async throws -> Void] = [
                { try await $0.readEndpointsAndQueries() }, { try await $0.writeEndpoints() },
                { try await $0.idsLinksAndIncluded() }, { try await $0.documentedBehaviour() },
            ]
            for check in checks {
                try await SQLTestDatabase.withSchema { configuration in
                    // Connecting may wait on a loaded machine (the suites run side by side with a
                    // compile); what is checked here is what the service answers once connected.
                    let service = try await ExampleService(
                        store: .seeded(articles: 12, seed: 7),
                        storage: .postgres(configuration, connectionTimeout: .seconds(60)))
                    try await serve(service, check)
                }
            }
        }
    }
#endif
