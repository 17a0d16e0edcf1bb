import JSONAPI
import JSONAPIServer
import Vapor

extension RoutesBuilder {
    /// Serves every resource type of `service` with all its endpoints (see
    /// ``JSONAPIServer/ResourceService``): `/TYPE`, `/TYPE/:id`, `/TYPE/:id/:relationship` and
    /// `/TYPE/:id/relationships/:relationship`, with the methods each declaration allows (405 with
    /// `Allow` for the others). Bodies are streamed into the parser as they arrive, under the
    /// service configuration's limits; add ``JSONAPIMiddleware`` with the same configuration for
    /// negotiation and error documents.
    ///
    /// ```swift
    /// var service = ResourceService()
    /// service.serve(ResourceDeclaration(source: InMemoryDataSource<Book>()))
    /// app.middleware.use(JSONAPIMiddleware(configuration: service.configuration))
    /// app.jsonapiService(service)
    /// ```
    ///
    /// When the service has an OpenAPI document
    /// (``JSONAPIServer/ResourceService/openAPIDocument``), it is written once here and served
    /// at `GET /openapi.json` as `application/json`.
    ///
    /// - Parameters:
    ///   - service: The declared resources.
    ///   - operations: The path of an Atomic Operations endpoint run by
    ///     ``JSONAPIServer/ResourceService/perform(_:request:)``, or nil (the default) for none;
    ///     the service's configuration must list `AtomicOperations.extensionURI` (the program
    ///     stops here otherwise: every request to the endpoint would be a 415).
    ///   - userInfo: Values for the declarations' hooks and authorization rules, read from each
    ///     request (the authenticated user, ...).
    public func jsonapiService(
        _ service: ResourceService, operations: String? = nil,
        userInfo: @escaping @Sendable (Request) async throws -> [String: any Sendable] = { _ in [:] }
    ) {
        if let operations {
            jsonapiOperations(operations, configuration: service.configuration) { list, request in
                let resourceRequest = ResourceRequest(
                    method: "POST", type: "", endpoint: .collection, target: request.jsonapiTarget,
                    userInfo: try await userInfo(request))
                return try await service.perform(list, request: resourceRequest)
            }
        }
        switch Result(catching: { try service.openAPIJSON(operationsPath: operations) }) {
        case .success(nil): break
        case .success(let bytes?):
            let body = ByteBuffer(bytes: bytes)
            get("openapi.json") { _ async -> Response in
                Response(status: .ok, headers: ["Content-Type": "application/json"], body: Response.Body(buffer: body))
            }
            jsonapiMethodNotAllowed(["openapi.json"], allowing: [.GET, .HEAD])
        case .failure(let error):
            // Not served silently wrong: every request for it answers why it could not be written.
            get("openapi.json") { _ async throws -> Response in throw error }
        }
        for type in service.resourceTypes {
            var routes = JSONAPIResourceRoutes()
            func handler(
                _ endpoint: @escaping @Sendable (Request) throws -> ResourceRequest.Endpoint
            ) -> JSONAPIResourceRoutes.Handler {
                { request in
                    let configuration = service.configuration
                    let endpoint = try endpoint(request)
                    // A method the route serves for some relationships but not this one (POST to a
                    // to-one): 405 with the `Allow` the service gives for it.
                    if let refusal = service.methodRefusal(request.method.rawValue, type: type, endpoint: endpoint) {
                        return JSONAPIResponse(describing: refusal)
                    }
                    let resourceRequest = ResourceRequest(
                        method: request.method.rawValue, type: type, endpoint: endpoint,
                        query: request.jsonapiRawQuery, target: request.jsonapiTarget,
                        ifMatch: request.jsonapiFieldValue(.ifMatch),
                        ifNoneMatch: request.jsonapiFieldValue(.ifNoneMatch),
                        userInfo: try await userInfo(request),
                        body: { kind in try await request.jsonapiDocument(kind: kind, configuration: configuration) })
                    return JSONAPIResponse(try await service.respond(to: resourceRequest))
                }
            }
            let collection = handler { _ in .collection }
            let resource = handler { .resource(id: try $0.parameters.require("id")) }
            let related = handler {
                .related(id: try $0.parameters.require("id"), relationship: try $0.parameters.require("relationship"))
            }
            let relationship = handler {
                .relationship(
                    id: try $0.parameters.require("id"), relationship: try $0.parameters.require("relationship"))
            }
            // The methods a path does not serve go to its handler too, whose refusal names the
            // methods of the relationship asked for (a to-one has no POST or DELETE).
            let refusing = [
                ResourceRoute.Path.collection: collection, .resource: resource, .related: related,
                .relationship: relationship,
            ]
            for route in service.routes(type: type) { routes[route] = refusing[route.path] }
            jsonapiResource(type, routes, bodyStrategy: .stream, refusing: refusing)
        }
    }
}

extension JSONAPIResponse {
    /// The Vapor response of a ``JSONAPIServer/ResourceResponse``: its status and document (sent
    /// as it is written when the response streams it), `Location`, `ETag` and the
    /// profiles it applies in `Content-Type`; no body and no `Content-Type` for 204 and 304.
    public init(_ response: ResourceResponse) {
        var headers = HTTPHeaders()
        if let location = response.location { headers.replaceOrAdd(name: .location, value: location) }
        if let etag = response.etag { headers.replaceOrAdd(name: .eTag, value: etag) }
        self.init(
            status: HTTPResponseStatus(statusCode: response.status), bytes: response.body ?? [],
            mediaType: JSONAPIMediaType(profiles: response.profiles), headers: headers)
        chunks = response.chunks
        if response.body == nil && response.chunks == nil { mediaType = nil }
    }
}
