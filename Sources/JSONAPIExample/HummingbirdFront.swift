#if Hummingbird
    import Foundation
    import Hummingbird
    import JSONAPI
    import JSONAPIHummingbird
    import JSONAPIServer

    /// The example service served by Hummingbird 2: its declared resources added whole
    /// (`addJSONAPIService`, with Atomic Operations at `/operations` and, with the OpenAPI trait,
    /// the service's document at `/openapi.json`), `POST /imports`, and ``JSONAPIMiddleware`` in
    /// front of them all.
    enum HummingbirdFront {
        static func router(
            service: ExampleService, configuration: JSONAPIConfiguration, baseline: Bool = false
        ) -> Router<BasicRequestContext> {
            let router = Router()
            router.add(middleware: JSONAPIMiddleware(configuration: configuration))
            var resources = service.resources
            resources.configuration = configuration
            router.addJSONAPIService(resources, operations: "operations")
            router.post("imports") { request, _ in
                let document = try await request.jsonapiDocument(kind: .response, configuration: configuration)
                return JSONAPIResponse(status: .ok, bytes: try service.importDocument(document))
            }
            router.addJSONAPIMethodNotAllowed("imports", allowing: [.post])
            if baseline {
                addBaseline(to: router, CodableBaseline(store: service.store))
                router.group("uncached").addJSONAPIService(ExampleResources.uncached(resources))
                let precomputed = PrecomputedAnswer(service: resources, query: "include=author,comments&page[size]=100")
                router.get("baseline/precomputed/articles") { _, _ in
                    Response(
                        status: .ok, headers: [.contentType: "application/vnd.api+json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: try await precomputed.body())))
                }
            }
            return router
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
            baseline: Bool = false, timeouts: JSONAPIServerTimeouts = JSONAPIServerTimeouts()
        ) -> some ApplicationProtocol {
            Application(
                router: router(service: service, configuration: configuration, baseline: baseline),
                server: timeouts.http1Server(),
                configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "jsonapi-example-server"))
        }
    }
#endif
