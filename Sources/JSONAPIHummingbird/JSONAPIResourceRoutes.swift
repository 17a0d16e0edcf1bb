import Hummingbird
import JSONAPI
import JSONAPIServer

/// The standard JSON:API endpoints of one resource type, registered with
/// ``Hummingbird/RouterMethods/addJSONAPIResource(_:_:)``: a handler for each route of
/// ``JSONAPIServer/ResourceRoute``, the table of which method each endpoint takes.
///
/// Each handler is optional; an endpoint without one is not registered. A path none of whose
/// handlers is set answers 404 through ``JSONAPIMiddleware``; a path with some answers the
/// other methods with 405 and an `Allow` header
/// (``Hummingbird/RouterMethods/addJSONAPIMethodNotAllowed(_:allowing:)``). Handlers read the
/// route parameters `id` and `relationship`:
///
/// | Handler | Route |
/// |---|---|
/// | ``collection`` | `GET /articles` |
/// | ``create`` | `POST /articles` |
/// | ``resource`` | `GET /articles/:id` |
/// | ``update`` | `PATCH /articles/:id` |
/// | ``delete`` | `DELETE /articles/:id` |
/// | ``related`` | `GET /articles/:id/:relationship` |
/// | ``relationship`` | `GET /articles/:id/relationships/:relationship` |
/// | ``replaceRelationship`` | `PATCH /articles/:id/relationships/:relationship` |
/// | ``addToRelationship`` | `POST /articles/:id/relationships/:relationship` |
/// | ``removeFromRelationship`` | `DELETE /articles/:id/relationships/:relationship` |
///
/// ```swift
/// var routes = JSONAPIResourceRoutes<BasicRequestContext>()
/// routes.resource = { request, context in
///     let id = try context.jsonapiParameter("id")
///     guard let article = store.article(id) else { throw JSONAPIHTTPError.notFound() }
///     return try JSONAPIResponse(encoding: article, encoder: JSONAPIEncoder())
/// }
/// router.addJSONAPIResource("articles", routes)
/// ```
public struct JSONAPIResourceRoutes<Context: RequestContext>: Sendable, ResourceRouteHandlers {
    /// A handler: the request and its context in, a response out.
    public typealias Handler = @Sendable (Request, Context) async throws -> JSONAPIResponse

    /// `GET /TYPE`.
    public var collection: Handler?
    /// `POST /TYPE`.
    public var create: Handler?
    /// `GET /TYPE/:id`.
    public var resource: Handler?
    /// `PATCH /TYPE/:id`.
    public var update: Handler?
    /// `DELETE /TYPE/:id`.
    public var delete: Handler?
    /// `GET /TYPE/:id/:relationship`: the related resource or resources.
    public var related: Handler?
    /// `GET /TYPE/:id/relationships/:relationship`: the linkage.
    public var relationship: Handler?
    /// `PATCH /TYPE/:id/relationships/:relationship`: replaces the linkage.
    public var replaceRelationship: Handler?
    /// `POST /TYPE/:id/relationships/:relationship`: adds to a to-many relationship.
    public var addToRelationship: Handler?
    /// `DELETE /TYPE/:id/relationships/:relationship`: removes from a to-many relationship.
    public var removeFromRelationship: Handler?

    /// Creates an empty set of handlers.
    public init() {}

}

extension RouterMethods {
    /// Registers the standard endpoints of resource type `path` (see ``JSONAPIResourceRoutes``),
    /// with `HEAD` wherever `GET` is served.
    @discardableResult
    public func addJSONAPIResource(_ path: String, _ routes: JSONAPIResourceRoutes<Context>) -> Self {
        addJSONAPIResource(path, routes, refusing: [:])
    }

    /// ``addJSONAPIResource(_:_:)``, with the methods a path does not serve sent to the handler
    /// `refusing` gives for the path, when it gives one (a resource service, whose `Allow` can
    /// depend on the relationship named), instead of a fixed 405.
    @discardableResult
    func addJSONAPIResource(
        _ path: String, _ routes: JSONAPIResourceRoutes<Context>,
        refusing: [ResourceRoute.Path: JSONAPIResourceRoutes<Context>.Handler]
    ) -> Self {
        var allowed: [ResourceRoute.Path: [HTTPRequest.Method]] = [:]
        for route in ResourceRoute.allCases {
            guard let handler = routes[route], let method = HTTPRequest.Method(route.method) else { continue }
            let routePath = RouterPath(([path] + route.path.segments { ":" + $0 }).joined(separator: "/"))
            on(routePath, method: method, use: handler)
            if method == .get {
                // HEAD: the head GET answers, without its body (RFC 9110 §9.3.2). Hummingbird
                // adds HEAD routes only with `autoGenerateHeadEndpoints`.
                on(routePath, method: .head) { request, context in
                    let response = try await handler(request, context).response(from: request, context: context)
                    guard response.headers[.contentLength] == nil else { return response.createHeadResponse() }
                    // GET's body has no length until it is written (a streamed collection): no
                    // Content-Length, which would have to be GET's.
                    return Response(status: response.status, headers: response.headers, body: ResponseBody { _ in })
                }
            }
            allowed[route.path, default: []].append(method)
        }
        for kind in ResourceRoute.Path.allCases {
            guard let methods = allowed[kind] else { continue }
            let routePath = ([path] + kind.segments { ":" + $0 }).joined(separator: "/")
            guard let refusal = refusing[kind] else {
                addJSONAPIMethodNotAllowed(routePath, allowing: methods)
                continue
            }
            for method in standardMethods where !methods.contains(method) {
                on(RouterPath(routePath), method: method, use: refusal)
            }
        }
        return self
    }

    /// Answers 405 Method Not Allowed, with an `Allow` header and an error document, to every
    /// standard method that `path` does not serve (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`,
    /// `TRACE`, `QUERY`; ``addJSONAPIResource(_:_:)`` answers `HEAD` where it serves `GET`), so that a known path with a wrong
    /// method is not a 404.
    ///
    /// ``addJSONAPIResource(_:_:)`` and ``addJSONAPIOperations(_:configuration:perform:)`` call it
    /// for their paths; call it for a route of your own:
    ///
    /// ```swift
    /// router.post("imports", use: importDocument)
    /// router.addJSONAPIMethodNotAllowed("imports", allowing: [.post])
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path, as registered.
    ///   - allowing: The methods the path serves, listed in `Allow` in this order.
    @discardableResult
    public func addJSONAPIMethodNotAllowed(_ path: String, allowing: [HTTPRequest.Method]) -> Self {
        let names = allowing.map(\.rawValue)
        for method in standardMethods where !allowing.contains(method) {
            on(RouterPath(path), method: method) { request, _ -> JSONAPIResponse in
                JSONAPIResponse(describing: JSONAPIHTTPError.methodNotAllowed(request.method.rawValue, allowed: names))
            }
        }
        return self
    }

    /// Registers an Atomic Operations endpoint (`POST path`, https://jsonapi.org/ext/atomic).
    ///
    /// The request must be sent as `application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"`
    /// (415 otherwise), and the configuration must list ``AtomicOperations/extensionURI`` among
    /// its supported extensions: registering the endpoint without it stops the program
    /// (``JSONAPI/AtomicOperations/requireSupport(in:path:)``). The operations are read and
    /// checked against the extension's rules before `perform` runs; the results are answered
    /// with 200 and the same media type, or 204 when no operation returned anything. `perform`
    /// should apply all operations or none.
    ///
    /// ```swift
    /// router.addJSONAPIOperations("operations", configuration: configuration) { operations, request, context in
    ///     try store.perform(operations)   // an AtomicResultsDocument
    /// }
    /// ```
    @discardableResult
    public func addJSONAPIOperations(
        _ path: String = "operations", configuration: JSONAPIConfiguration,
        perform: @escaping @Sendable ([AtomicOperation], Request, Context) async throws -> AtomicResultsDocument
    ) -> Self {
        AtomicOperations.requireSupport(in: configuration, path: path)
        post(RouterPath(path)) { request, context -> JSONAPIResponse in
            let requestType = try request.jsonapiRequestMediaType(configuration: configuration)
            let document = try await request.jsonapiDocument(kind: .response, configuration: configuration)
            let operations = try AtomicOperations.checkedOperations(of: document, requestType: requestType)
            let results = try await perform(operations, request, context)
            guard let body = try AtomicOperations.responseBody(for: results, options: configuration.writingOptions)
            else { return .noContent() }
            return JSONAPIResponse(
                bytes: body, mediaType: JSONAPIMediaType(extensions: [AtomicOperations.extensionURI]))
        }
        return addJSONAPIMethodNotAllowed(path, allowing: [.post])
    }
}

/// The methods a JSON:API path answers with 405 when it does not serve them: the methods with a
/// meaning for a resource, `TRACE`, and `QUERY` (a safe method with a body, an IETF draft), which
/// would otherwise be a 404 on a path that exists.
private let standardMethods: [HTTPRequest.Method] =
    [.get, .post, .put, .patch, .delete, .trace] + (HTTPRequest.Method("QUERY").map { [$0] } ?? [])
