#if Vapor
    import JSONAPI
    import JSONAPIServer
    import JSONAPIVapor
    import Vapor

    /// The example service served by Vapor 4: its declared resources added whole
    /// (`jsonapiService`, with Atomic Operations at `/operations` and, with the OpenAPI trait, the
    /// service's document at `/openapi.json`), `POST /imports`, and ``JSONAPIMiddleware`` in
    /// front of them all.
    enum VaporFront {
        static func register(
            on app: Application, service: ExampleService, configuration: JSONAPIConfiguration, baseline: Bool = false
        ) {
            app.middleware.use(JSONAPIMiddleware(configuration: configuration))
            var resources = service.resources
            resources.configuration = configuration
            app.jsonapiService(resources, operations: "operations")
            app.on(.POST, "imports", body: .stream) { request async throws -> JSONAPIResponse in
                let document = try await request.jsonapiDocument(kind: .response, configuration: configuration)
                return JSONAPIResponse(status: .ok, bytes: try service.importDocument(document))
            }
            app.jsonapiMethodNotAllowed(["imports"], allowing: [.POST])
            if baseline {
                addBaseline(to: app, CodableBaseline(store: service.store))
                app.grouped("uncached").jsonapiService(ExampleResources.uncached(resources))
                let precomputed = PrecomputedAnswer(service: resources, query: "include=author,comments&page[size]=100")
                app.get("baseline", "precomputed", "articles") { _ async throws -> Response in
                    Response(
                        status: .ok, headers: ["Content-Type": "application/vnd.api+json"],
                        body: Response.Body(buffer: ByteBuffer(bytes: try await precomputed.body())))
                }
            }
        }

        /// The `Codable` baseline's endpoints, written as a Vapor user writes them.
        static func addBaseline(to app: Application, _ baseline: CodableBaseline) {
            @Sendable func respond(_ status: HTTPResponseStatus, _ body: [UInt8]) -> Response {
                Response(
                    status: status, headers: ["Content-Type": "application/vnd.api+json"],
                    body: Response.Body(buffer: ByteBuffer(bytes: body)))
            }
            @Sendable func mapped<T>(_ body: () throws -> T) throws -> T {
                do { return try body() } catch let error as CodableBaseline.BaselineError {
                    throw Abort(HTTPResponseStatus(statusCode: error.status))
                }
            }
            app.get("baseline", "articles") { request async throws -> Response in
                let include = Set(
                    ((try? request.query.get(String.self, at: "include")) ?? "").split(separator: ",").map(String.init))
                let body = try baseline.list(
                    pageNumber: (try? request.query.get(Int.self, at: "page", "number")) ?? 1,
                    pageSize: min((try? request.query.get(Int.self, at: "page", "size")) ?? 10, 100), include: include)
                return respond(.ok, body)
            }
            app.on(.POST, "baseline", "articles", body: .collect(maxSize: "2mb")) { request async throws -> Response in
                let body = Array(buffer: request.body.data ?? ByteBuffer())
                return respond(.created, try mapped { try baseline.create(body: body) })
            }
            app.on(.POST, "baseline", "imports", body: .collect(maxSize: "2mb")) { request async throws -> Response in
                let body = Array(buffer: request.body.data ?? ByteBuffer())
                return respond(.ok, try mapped { try baseline.importDocument(body: body) })
            }
        }

        /// An application serving the example on 127.0.0.1:`port` (0 picks a free port), not yet
        /// started. Its environment has no command-line arguments: the example's own options are
        /// not Vapor's.
        static func application(
            service: ExampleService, port: Int, configuration: JSONAPIConfiguration = ExampleService.configuration(),
            baseline: Bool = false, timeouts: JSONAPIServerTimeouts = JSONAPIServerTimeouts()
        ) async throws -> Application {
            let app = try await Application.make(Environment(name: "production", arguments: ["jsonapi-example-server"]))
            app.http.server.configuration.hostname = "127.0.0.1"
            app.http.server.configuration.port = port
            app.http.server.configuration.serverName = "jsonapi-example-server"
            app.http.server.configuration.useJSONAPITimeouts(timeouts)
            register(on: app, service: service, configuration: configuration, baseline: baseline)
            return app
        }

        /// Runs the service until the process is stopped (Vapor's `serve` command, which stops on
        /// SIGINT and SIGTERM).
        static func run(
            service: ExampleService, port: Int, baseline: Bool, timeouts: JSONAPIServerTimeouts
        ) async throws {
            let app = try await application(service: service, port: port, baseline: baseline, timeouts: timeouts)
            do {
                try await app.execute()
            } catch {
                try? await app.asyncShutdown()
                throw error
            }
            try await app.asyncShutdown()
        }
    }
#endif
