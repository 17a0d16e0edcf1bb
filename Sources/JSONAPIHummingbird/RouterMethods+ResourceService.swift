import Hummingbird
import JSONAPI
import JSONAPIServer

extension RouterMethods {
    /// Serves every resource type of `service` with all its endpoints (see
    /// ``JSONAPIServer/ResourceService``): `/TYPE`, `/TYPE/:id`, `/TYPE/:id/:relationship` and
    /// `/TYPE/:id/relationships/:relationship`, with the methods each declaration allows (405 with
    /// `Allow` for the others). Bodies are parsed as they arrive, under `configuration`'s limits;
    /// add ``JSONAPIMiddleware`` with the same configuration for negotiation and error documents.
    ///
    /// ```swift
    /// var service = ResourceService()
    /// service.serve(ResourceDeclaration(source: InMemoryDataSource<Book>()))
    /// let router = Router()
    /// router.add(middleware: JSONAPIMiddleware(configuration: service.configuration))
    /// router.addJSONAPIService(service)
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
    @discardableResult
    public func addJSONAPIService(
        _ service: ResourceService, operations: String? = nil,
        userInfo: @escaping @Sendable (Request, Context) async throws -> [String: any Sendable] = { _, _ in [:] }
    ) -> Self {
        if let operations {
            addJSONAPIOperations(operations, configuration: service.configuration) { list, request, context in
                let resourceRequest = ResourceRequest(
                    method: "POST", type: "", endpoint: .collection, target: request.jsonapiTarget,
                    userInfo: try await userInfo(request, context))
                return try await service.perform(list, request: resourceRequest)
            }
        }
        switch Result(catching: { try service.openAPIJSON(operationsPath: operations) }) {
        case .success(nil): break
        case .success(let bytes?):
            let body = ByteBuffer(bytes: bytes)
            let document = Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
            get("openapi.json") { _, _ in document }
            head("openapi.json") { _, _ in document.createHeadResponse() }
            addJSONAPIMethodNotAllowed("openapi.json", allowing: [.get, .head])
        case .failure(let error):
            // Not served silently wrong: every request for it answers why it could not be written.
            get("openapi.json") { _, _ -> Response in throw error }
        }
        for type in service.resourceTypes {
            var routes = JSONAPIResourceRoutes<Context>()
            func handler(
                _ endpoint: @escaping @Sendable (Context) throws -> ResourceRequest.Endpoint
            ) -> JSONAPIResourceRoutes<Context>.Handler {
                { request, context in
                    let configuration = service.configuration
                    let endpoint = try endpoint(context)
                    // A method the route serves for some relationships but not this one (POST to a
                    // to-one): 405 with the `Allow` the service gives for it.
                    if let refusal = service.methodRefusal(request.method.rawValue, type: type, endpoint: endpoint) {
                        return JSONAPIResponse(describing: refusal)
                    }
                    let resourceRequest = ResourceRequest(
                        method: request.method.rawValue, type: type, endpoint: endpoint,
                        query: request.jsonapiRawQuery, target: request.jsonapiTarget,
                        ifMatch: request.headers[values: .ifMatch].joinedFieldValue,
                        ifNoneMatch: request.headers[values: .ifNoneMatch].joinedFieldValue,
                        userInfo: try await userInfo(request, context),
                        body: { kind in try await request.jsonapiDocument(kind: kind, configuration: configuration) })
                    return JSONAPIResponse(try await service.respond(to: resourceRequest))
                }
            }
            let collection = handler { _ in .collection }
            let resource = handler { .resource(id: try $0.jsonapiParameter("id")) }
            let related = handler {
                .related(id: try $0.jsonapiParameter("id"), relationship: try $0.jsonapiParameter("relationship"))
            }
            let relationship = handler {
                .relationship(id: try $0.jsonapiParameter("id"), relationship: try $0.jsonapiParameter("relationship"))
            }
            // The methods a path does not serve go to its handler too, whose refusal names the
            // methods of the relationship asked for (a to-one has no POST or DELETE).
            let refusing = [
                ResourceRoute.Path.collection: collection, .resource: resource, .related: related,
                .relationship: relationship,
            ]
            for route in service.routes(type: type) { routes[route] = refusing[route.path] }
            addJSONAPIResource(type, routes, refusing: refusing)
        }
        return self
    }
}

extension Array where Element == String {
    /// Repeated field lines as one value, joined by commas (RFC 9110 §5.3); nil for none.
    fileprivate var joinedFieldValue: String? { isEmpty ? nil : joined(separator: ", ") }
}

extension JSONAPIResponse {
    /// The Hummingbird response of a ``JSONAPIServer/ResourceResponse``: its status and document
    /// (sent as it is written when the response streams it), `Location`, `ETag` and the
    /// profiles it applies in `Content-Type`; no body and no `Content-Type` for 204 and 304.
    public init(_ response: ResourceResponse) {
        var headers = HTTPFields()
        if let location = response.location { headers[.location] = location }
        if let etag = response.etag { headers[.eTag] = etag }
        let type = JSONAPIMediaType(profiles: response.profiles)
        if let body = response.body {
            self.init(
                status: HTTPResponse.Status(code: response.status), bytes: body, mediaType: type, headers: headers)
        } else if let chunks = response.chunks {
            self.init(
                status: HTTPResponse.Status(code: response.status), bytes: [], mediaType: type, headers: headers)
            self.chunks = chunks
        } else {
            self.init(status: HTTPResponse.Status(code: response.status), bytes: [], headers: headers)
            mediaType = nil
        }
    }
}
