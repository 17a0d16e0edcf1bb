import JSONAPI
import JSONAPIServer
import Vapor

/// The standard JSON:API endpoints of one resource type, registered with
/// ``Vapor/RoutesBuilder/jsonapiResource(_:_:bodyStrategy:)``: a handler for each route of
/// ``JSONAPIServer/ResourceRoute``, the table of which method each endpoint takes.
///
/// Each handler is optional; an endpoint without one is not registered. A path none of whose
/// handlers is set answers 404 through ``JSONAPIMiddleware``; a path with some answers the
/// other methods with 405 and an `Allow` header
/// (``Vapor/RoutesBuilder/jsonapiMethodNotAllowed(_:allowing:)``). Handlers read the route
/// parameters `id` and `relationship`.
/// The endpoints that take a body are registered with `body: .stream`, so
/// ``Vapor/Request/jsonapiDocument(kind:configuration:)`` parses it as it arrives:
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
/// var routes = JSONAPIResourceRoutes()
/// routes.resource = { request in
///     let id = try request.parameters.require("id")
///     guard let article = store.article(id) else { throw JSONAPIHTTPError.notFound() }
///     return try JSONAPIResponse(encoding: article, encoder: JSONAPIEncoder())
/// }
/// app.jsonapiResource("articles", routes)
/// ```
public struct JSONAPIResourceRoutes: Sendable, ResourceRouteHandlers {
    /// A handler: the request in, a response out.
    public typealias Handler = @Sendable (Request) async throws -> JSONAPIResponse

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

extension RoutesBuilder {
    /// Registers the standard endpoints of resource type `path` (see ``JSONAPIResourceRoutes``).
    ///
    /// - Parameters:
    ///   - path: The collection's path, the resource type (`articles`).
    ///   - routes: The handlers; endpoints without one are not registered.
    ///   - bodyStrategy: How the endpoints that take a body receive it. `.stream` (the default)
    ///     parses a body buffer by buffer as it arrives, so no body is held whole before parsing;
    ///     `.collect(maxSize:)` lets Vapor collect each body whole first, without its per-request
    ///     body stream.
    public func jsonapiResource(
        _ path: String, _ routes: JSONAPIResourceRoutes, bodyStrategy: HTTPBodyStreamStrategy = .stream
    ) {
        jsonapiResource(path, routes, bodyStrategy: bodyStrategy, refusing: [:])
    }

    /// ``jsonapiResource(_:_:bodyStrategy:)``, with the methods a path does not serve sent to the
    /// handler `refusing` gives for the path, when it gives one (a resource service, whose
    /// `Allow` can depend on the relationship named), instead of a fixed 405.
    func jsonapiResource(
        _ path: String, _ routes: JSONAPIResourceRoutes, bodyStrategy: HTTPBodyStreamStrategy,
        refusing: [ResourceRoute.Path: JSONAPIResourceRoutes.Handler]
    ) {
        func components(_ kind: ResourceRoute.Path) -> [PathComponent] {
            path.pathComponents + kind.segments { ":" + $0 }.map { PathComponent(stringLiteral: $0) }
        }
        var allowed: [ResourceRoute.Path: [HTTPMethod]] = [:]
        for route in ResourceRoute.allCases {
            guard let handler = routes[route] else { continue }
            let method = HTTPMethod(rawValue: route.method)
            let strategy: HTTPBodyStreamStrategy = method == .GET ? .collect : bodyStrategy
            on(method, components(route.path), body: strategy, use: handler)
            allowed[route.path, default: []].append(method)
        }
        for kind in ResourceRoute.Path.allCases {
            guard let methods = allowed[kind] else { continue }
            guard let refusal = refusing[kind] else {
                jsonapiMethodNotAllowed(components(kind), allowing: methods)
                continue
            }
            for method in standardMethods where !methods.contains(method) {
                on(method, components(kind), body: .collect, use: refusal)
            }
        }
    }

    /// Answers 405 Method Not Allowed, with an `Allow` header and an error document, to every
    /// standard method that `path` does not serve (`GET`, `POST`, `PUT`, `PATCH`, `DELETE`,
    /// `TRACE`, `QUERY`; Vapor answers `HEAD` as `GET`), so that a known path with a wrong method
    /// is not a 404.
    ///
    /// ``jsonapiResource(_:_:bodyStrategy:)`` and ``jsonapiOperations(_:configuration:perform:)``
    /// call it for their paths; call it for a route of your own:
    ///
    /// ```swift
    /// app.on(.POST, "imports", body: .stream, use: importDocument)
    /// app.jsonapiMethodNotAllowed(["imports"], allowing: [.POST])
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path, as registered.
    ///   - allowing: The methods the path serves, listed in `Allow` in this order.
    public func jsonapiMethodNotAllowed(_ path: [PathComponent], allowing: [HTTPMethod]) {
        let names = allowing.map(\.rawValue)
        for method in standardMethods where !allowing.contains(method) {
            on(method, path, body: .collect) { request -> JSONAPIResponse in
                JSONAPIResponse(describing: JSONAPIHTTPError.methodNotAllowed(request.method.rawValue, allowed: names))
            }
        }
    }

    /// Registers an Atomic Operations endpoint (`POST path`, https://jsonapi.org/ext/atomic).
    ///
    /// The request must be sent as `application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"`
    /// (415 otherwise), and the configuration must list ``JSONAPI/AtomicOperations/extensionURI``
    /// among its supported extensions: registering the endpoint without it stops the program
    /// (``JSONAPI/AtomicOperations/requireSupport(in:path:)``). The operations are read
    /// (streamed) and checked against the extension's rules before `perform` runs; the results
    /// are answered with 200 and the same media type, or 204 when no operation returned
    /// anything. `perform` should apply all operations or none.
    ///
    /// ```swift
    /// app.jsonapiOperations("operations", configuration: configuration) { operations, request in
    ///     try store.perform(operations)   // an AtomicResultsDocument
    /// }
    /// ```
    public func jsonapiOperations(
        _ path: String = "operations", configuration: JSONAPIConfiguration,
        perform: @escaping @Sendable ([AtomicOperation], Request) async throws -> AtomicResultsDocument
    ) {
        AtomicOperations.requireSupport(in: configuration, path: path)
        on(.POST, path.pathComponents, body: .stream) { request async throws -> JSONAPIResponse in
            let requestType = try request.jsonapiRequestMediaType(configuration: configuration)
            let document = try await request.jsonapiDocument(kind: .response, configuration: configuration)
            let operations = try AtomicOperations.checkedOperations(of: document, requestType: requestType)
            let results = try await perform(operations, request)
            guard let body = try AtomicOperations.responseBody(for: results, options: configuration.writingOptions)
            else { return .noContent() }
            return JSONAPIResponse(
                bytes: body, mediaType: JSONAPIMediaType(extensions: [AtomicOperations.extensionURI]))
        }
        jsonapiMethodNotAllowed(path.pathComponents, allowing: [.POST])
    }
}

/// The methods a JSON:API path answers with 405 when it does not serve them: the methods with a
/// meaning for a resource, `TRACE`, and `QUERY` (a safe method with a body, an IETF draft), which
/// would otherwise be a 404 on a path that exists.
private let standardMethods: [HTTPMethod] = [.GET, .POST, .PUT, .PATCH, .DELETE, .TRACE, .RAW(value: "QUERY")]
