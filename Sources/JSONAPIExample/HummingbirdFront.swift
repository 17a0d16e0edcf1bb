#if Hummingbird
    import Foundation
    import Hummingbird
    import JSONAPI
    import JSONAPIHummingbird
    import JSONAPIServer

    /// The example service served by Hummingbird 2: routes of ``JSONAPIResourceRoutes`` for every
    /// type, an Atomic Operations endpoint, the service's OpenAPI document at `/openapi.json`
    /// (with the OpenAPI trait), and ``JSONAPIMiddleware`` in front of them all.
    enum HummingbirdFront {
        static func router(
            service: ExampleService, configuration: JSONAPIConfiguration, baseline: Bool = false,
            layer: ResourceService? = nil
        ) -> Router<BasicRequestContext> {
            let router = Router()
            router.add(middleware: JSONAPIMiddleware(configuration: configuration))
            for type in ResourceSchema.all.keys.sorted() {
                router.addJSONAPIResource(type, routes(type, service: service, configuration: configuration))
            }
            router.addJSONAPIOperations("operations", configuration: configuration) { operations, _, _ in
                try service.perform(operations)
            }
            router.post("imports") { request, _ in
                let document = try await request.jsonapiDocument(kind: .response, configuration: configuration)
                return response(try service.importDocument(document))
            }
            router.addJSONAPIMethodNotAllowed("imports", allowing: [.post])
            #if OpenAPI
                // Written once: the document depends on the service's rules alone.
                let openAPI = ByteBuffer(bytes: (try? service.openAPIJSON()) ?? [])
                router.get("openapi.json") { _, _ in
                    Response(
                        status: .ok, headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: openAPI))
                }
                router.addJSONAPIMethodNotAllowed("openapi.json", allowing: [.get, .head])
            #endif
            if baseline { addBaseline(to: router, CodableBaseline(store: service.store)) }
            if let layer {
                router.group("layer").addJSONAPIService(layer)
                router.group("layer-uncached").addJSONAPIService(ExampleResources.uncached(layer))
                let precomputed = PrecomputedAnswer(service: layer, query: "include=author,comments&page[size]=100")
                router.get("baseline/precomputed/articles") { _, _ in
                    Response(
                        status: .ok, headers: [.contentType: "application/vnd.api+json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: try await precomputed.body())))
                }
            }
            return router
        }

        static func routes(
            _ type: String, service: ExampleService, configuration: JSONAPIConfiguration
        ) -> JSONAPIResourceRoutes<BasicRequestContext> {
            var routes = JSONAPIResourceRoutes<BasicRequestContext>()
            routes.collection = { request, _ in
                response(try service.list(type: type, rawQuery: request.uri.query ?? "", target: request.jsonapiTarget))
            }
            routes.resource = { request, context in
                response(try service.show(type: type, id: try id(context), rawQuery: request.uri.query ?? ""))
            }
            routes.related = { request, context in
                response(
                    try service.related(
                        type: type, id: try id(context), relationship: try relationship(context),
                        rawQuery: request.uri.query ?? ""))
            }
            routes.relationship = { request, context in
                response(
                    try service.relationship(
                        type: type, id: try id(context), relationship: try relationship(context),
                        rawQuery: request.uri.query ?? ""))
            }
            routes.create = { request, _ in
                let document = try await request.jsonapiDocument(kind: .createRequest, configuration: configuration)
                return response(try service.create(type: type, document: document, rawQuery: request.uri.query ?? ""))
            }
            routes.update = { request, context in
                let document = try await request.jsonapiDocument(kind: .updateRequest, configuration: configuration)
                return response(
                    try service.update(
                        type: type, id: try id(context), document: document, rawQuery: request.uri.query ?? ""))
            }
            routes.delete = { request, context in
                response(try service.delete(type: type, id: try id(context), rawQuery: request.uri.query ?? ""))
            }
            let changes:
                [(
                    ExampleService.RelationshipChange,
                    WritableKeyPath<
                        JSONAPIResourceRoutes<BasicRequestContext>, JSONAPIResourceRoutes<BasicRequestContext>.Handler?
                    >
                )] = [
                    (.replace, \.replaceRelationship), (.add, \.addToRelationship), (.remove, \.removeFromRelationship),
                ]
            for (change, keyPath) in changes {
                routes[keyPath: keyPath] = { request, context in
                    if let allowed = try service.methodsAllowed(
                        type: type, relationship: try relationship(context), refusing: change)
                    {
                        return methodNotAllowed(request.method.rawValue, allowed: allowed)
                    }
                    let document = try await request.jsonapiDocument(
                        kind: .relationshipUpdate, configuration: configuration)
                    return response(
                        try service.changeRelationship(
                            type: type, id: try id(context), relationship: try relationship(context), change: change,
                            document: document, rawQuery: request.uri.query ?? ""))
                }
            }
            return routes
        }

        static func id(_ context: BasicRequestContext) throws -> String { try parameter("id", context) }

        static func relationship(_ context: BasicRequestContext) throws -> String {
            try parameter("relationship", context)
        }

        /// A path parameter, percent-decoded: Hummingbird hands them over as sent
        /// (`/articles/%C3%89` is the article `É`); one that does not decode is a 404.
        static func parameter(_ name: String, _ context: BasicRequestContext) throws -> String {
            try context.jsonapiParameter(name)
        }

        /// 405 with `Allow` and an error document, as the adapter answers a method a path does
        /// not serve.
        static func methodNotAllowed(_ method: String, allowed: [String]) -> JSONAPIResponse {
            let error = JSONAPIHTTPError.methodNotAllowed(method, allowed: allowed)
            var response = JSONAPIResponse(errors: JSONAPIErrorDocument(errors: error.errors))
            response.headers[.allow] = JSONAPIHTTPError.allowHeader(allowed)
            return response
        }

        static func response(_ response: ServiceResponse) -> JSONAPIResponse {
            var headers = HTTPFields()
            if let location = response.location { headers[.location] = location }
            guard let body = response.body else { return .noContent(headers: headers) }
            return JSONAPIResponse(status: HTTPResponse.Status(code: response.status), bytes: body, headers: headers)
        }

        /// The `Codable` baseline's endpoints, written as a Hummingbird user writes them.
        static func addBaseline(to router: Router<BasicRequestContext>, _ baseline: CodableBaseline) {
            @Sendable func respond(_ status: HTTPResponse.Status, _ body: [UInt8]) -> Response {
                Response(
                    status: status, headers: [.contentType: "application/vnd.api+json"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
            }
            @Sendable func collect(_ request: Request, _ context: BasicRequestContext) async throws -> [UInt8] {
                Array(buffer: try await request.body.collect(upTo: context.maxUploadSize))
            }
            @Sendable func mapped<T>(_ body: () throws -> T) throws -> T {
                do { return try body() } catch let error as CodableBaseline.BaselineError {
                    throw HTTPError(HTTPResponse.Status(code: error.status))
                }
            }
            router.get("baseline/articles") { request, _ in
                let parameters = request.uri.queryParameters
                let include = Set((parameters.get("include") ?? "").split(separator: ",").map(String.init))
                let body = try baseline.list(
                    pageNumber: parameters.get("page[number]", as: Int.self) ?? 1,
                    pageSize: min(parameters.get("page[size]", as: Int.self) ?? 10, 100), include: include)
                return respond(.ok, body)
            }
            router.post("baseline/articles") { request, context in
                let body = try await collect(request, context)
                return respond(.created, try mapped { try baseline.create(body: body) })
            }
            router.post("baseline/imports") { request, context in
                let body = try await collect(request, context)
                return respond(.ok, try mapped { try baseline.importDocument(body: body) })
            }
        }

        static func application(
            service: ExampleService, port: Int, configuration: JSONAPIConfiguration = ExampleService.configuration(),
            baseline: Bool = false, layer: ResourceService? = nil,
            timeouts: JSONAPIServerTimeouts = JSONAPIServerTimeouts()
        ) -> some ApplicationProtocol {
            Application(
                router: router(service: service, configuration: configuration, baseline: baseline, layer: layer),
                server: timeouts.http1Server(),
                configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "jsonapi-example-server"))
        }
    }
#endif
