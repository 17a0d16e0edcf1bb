#if Vapor
    import JSONAPI
    import JSONAPIServer
    import JSONAPIVapor
    import Vapor

    /// The example service served by Vapor 4: routes of ``JSONAPIResourceRoutes`` for every type, an
    /// Atomic Operations endpoint, the service's OpenAPI document at `/openapi.json` (with the
    /// OpenAPI trait), and ``JSONAPIMiddleware`` in front of them all.
    enum VaporFront {
        static func register(
            on app: Application, service: ExampleService, configuration: JSONAPIConfiguration, baseline: Bool = false,
            layer: ResourceService? = nil
        ) {
            app.middleware.use(JSONAPIMiddleware(configuration: configuration))
            for type in ResourceSchema.all.keys.sorted() {
                app.jsonapiResource(type, routes(type, service: service, configuration: configuration))
            }
            app.jsonapiOperations("operations", configuration: configuration) { operations, _ in
                try service.perform(operations)
            }
            app.on(.POST, "imports", body: .stream) { request async throws -> JSONAPIResponse in
                let document = try await request.jsonapiDocument(kind: .response, configuration: configuration)
                return response(try service.importDocument(document))
            }
            app.jsonapiMethodNotAllowed(["imports"], allowing: [.POST])
            #if OpenAPI
                // Written once: the document depends on the service's rules alone.
                let openAPI = ByteBuffer(bytes: (try? service.openAPIJSON()) ?? [])
                app.get("openapi.json") { _ async -> Response in
                    Response(
                        status: .ok, headers: ["Content-Type": "application/json"], body: Response.Body(buffer: openAPI)
                    )
                }
                app.jsonapiMethodNotAllowed(["openapi.json"], allowing: [.GET, .HEAD])
            #endif
            if baseline { addBaseline(to: app, CodableBaseline(store: service.store)) }
            if let layer {
                app.grouped("layer").jsonapiService(layer)
                app.grouped("layer-uncached").jsonapiService(ExampleResources.uncached(layer))
                let precomputed = PrecomputedAnswer(service: layer, query: "include=author,comments&page[size]=100")
                app.get("baseline", "precomputed", "articles") { _ async throws -> Response in
                    Response(
                        status: .ok, headers: ["Content-Type": "application/vnd.api+json"],
                        body: Response.Body(buffer: ByteBuffer(bytes: try await precomputed.body())))
                }
            }
        }

        static func routes(
            _ type: String, service: ExampleService, configuration: JSONAPIConfiguration
        ) -> JSONAPIResourceRoutes {
            var routes = JSONAPIResourceRoutes()
            routes.collection = { request in
                response(try service.list(type: type, rawQuery: request.jsonapiRawQuery, target: request.jsonapiTarget))
            }
            routes.resource = { request in
                response(try service.show(type: type, id: try id(request), rawQuery: request.jsonapiRawQuery))
            }
            routes.related = { request in
                response(
                    try service.related(
                        type: type, id: try id(request), relationship: try relationship(request),
                        rawQuery: request.jsonapiRawQuery))
            }
            routes.relationship = { request in
                response(
                    try service.relationship(
                        type: type, id: try id(request), relationship: try relationship(request),
                        rawQuery: request.jsonapiRawQuery))
            }
            routes.create = { request in
                let document = try await request.jsonapiDocument(kind: .createRequest, configuration: configuration)
                return response(try service.create(type: type, document: document, rawQuery: request.jsonapiRawQuery))
            }
            routes.update = { request in
                let document = try await request.jsonapiDocument(kind: .updateRequest, configuration: configuration)
                return response(
                    try service.update(
                        type: type, id: try id(request), document: document, rawQuery: request.jsonapiRawQuery))
            }
            routes.delete = { request in
                response(try service.delete(type: type, id: try id(request), rawQuery: request.jsonapiRawQuery))
            }
            let changes:
                [(
                    ExampleService.RelationshipChange,
                    WritableKeyPath<JSONAPIResourceRoutes, JSONAPIResourceRoutes.Handler?>
                )] = [
                    (.replace, \.replaceRelationship), (.add, \.addToRelationship), (.remove, \.removeFromRelationship),
                ]
            for (change, keyPath) in changes {
                routes[keyPath: keyPath] = { request in
                    if let allowed = try service.methodsAllowed(
                        type: type, relationship: try relationship(request), refusing: change)
                    {
                        return methodNotAllowed(request.method.rawValue, allowed: allowed)
                    }
                    let document = try await request.jsonapiDocument(
                        kind: .relationshipUpdate, configuration: configuration)
                    return response(
                        try service.changeRelationship(
                            type: type, id: try id(request), relationship: try relationship(request), change: change,
                            document: document, rawQuery: request.jsonapiRawQuery))
                }
            }
            return routes
        }

        static func id(_ request: Request) throws -> String { try request.parameters.require("id") }

        static func relationship(_ request: Request) throws -> String { try request.parameters.require("relationship") }

        /// 405 with `Allow` and an error document, as the adapter answers a method a path does
        /// not serve.
        static func methodNotAllowed(_ method: String, allowed: [String]) -> JSONAPIResponse {
            let error = JSONAPIHTTPError.methodNotAllowed(method, allowed: allowed)
            var response = JSONAPIResponse(errors: JSONAPIErrorDocument(errors: error.errors))
            response.headers.replaceOrAdd(name: .allow, value: JSONAPIHTTPError.allowHeader(allowed))
            return response
        }

        static func response(_ response: ServiceResponse) -> JSONAPIResponse {
            var headers = HTTPHeaders()
            if let location = response.location { headers.replaceOrAdd(name: .location, value: location) }
            guard let body = response.body else { return .noContent(headers: headers) }
            return JSONAPIResponse(
                status: HTTPResponseStatus(statusCode: response.status), bytes: body, headers: headers)
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
            baseline: Bool = false, layer: ResourceService? = nil,
            timeouts: JSONAPIServerTimeouts = JSONAPIServerTimeouts()
        ) async throws -> Application {
            let app = try await Application.make(Environment(name: "production", arguments: ["jsonapi-example-server"]))
            app.http.server.configuration.hostname = "127.0.0.1"
            app.http.server.configuration.port = port
            app.http.server.configuration.serverName = "jsonapi-example-server"
            app.http.server.configuration.useJSONAPITimeouts(timeouts)
            register(on: app, service: service, configuration: configuration, baseline: baseline, layer: layer)
            return app
        }

        /// Runs the service until the process is stopped (Vapor's `serve` command, which stops on
        /// SIGINT and SIGTERM).
        static func run(
            service: ExampleService, port: Int, baseline: Bool, layer: ResourceService?, timeouts: JSONAPIServerTimeouts
        ) async throws {
            let app = try await application(
                service: service, port: port, baseline: baseline, layer: layer, timeouts: timeouts)
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
