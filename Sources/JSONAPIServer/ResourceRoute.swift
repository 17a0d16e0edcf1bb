/// The standard JSON:API endpoints of a resource type, each a method on one of four paths: the one
/// table of which method each endpoint takes.
///
/// ``ResourceService/routes(type:)`` lists the routes a declaration serves, the adapters register
/// exactly those (and answer the other methods of each path with 405), ``ResourceService``
/// refuses the rest with the `Allow` of ``ResourceService/methods(type:endpoint:)``, and
/// `JSONAPIOpenAPI` documents the same routes.
///
/// | Route | Request | Served when the declaration's ``ResourceOperations`` hold |
/// |---|---|---|
/// | ``list`` | `GET /TYPE` | ``ResourceOperations/list`` |
/// | ``create`` | `POST /TYPE` | ``ResourceOperations/create`` |
/// | ``show`` | `GET /TYPE/ID` | ``ResourceOperations/read`` |
/// | ``update`` | `PATCH /TYPE/ID` | ``ResourceOperations/update`` |
/// | ``delete`` | `DELETE /TYPE/ID` | ``ResourceOperations/delete`` |
/// | ``related`` | `GET /TYPE/ID/NAME` | ``ResourceOperations/read`` |
/// | ``showRelationship`` | `GET /TYPE/ID/relationships/NAME` | ``ResourceOperations/read`` |
/// | ``replaceRelationship`` | `PATCH /TYPE/ID/relationships/NAME` | ``ResourceOperations/changeRelationships`` |
/// | ``addToRelationship`` | `POST /TYPE/ID/relationships/NAME` | ``ResourceOperations/changeRelationships``, to-many `NAME` |
/// | ``removeFromRelationship`` | `DELETE /TYPE/ID/relationships/NAME` | ``ResourceOperations/changeRelationships``, to-many `NAME` |
///
/// `HEAD` goes wherever `GET` goes.
///
/// ```swift
/// for route in service.routes(type: "books") {
///     print(route.method, route.path.template(type: "books"))   // GET /books, POST /books, ...
/// }
/// ```
public enum ResourceRoute: CaseIterable, Sendable, Hashable {
    /// `GET /TYPE`.
    case list
    /// `POST /TYPE`.
    case create
    /// `GET /TYPE/ID`.
    case show
    /// `PATCH /TYPE/ID`.
    case update
    /// `DELETE /TYPE/ID`.
    case delete
    /// `GET /TYPE/ID/NAME`: the related resource or resources.
    case related
    /// `GET /TYPE/ID/relationships/NAME`: the linkage.
    case showRelationship
    /// `PATCH /TYPE/ID/relationships/NAME`: replaces the linkage.
    case replaceRelationship
    /// `POST /TYPE/ID/relationships/NAME`: adds members to a to-many relationship.
    case addToRelationship
    /// `DELETE /TYPE/ID/relationships/NAME`: removes members from a to-many relationship.
    case removeFromRelationship

    /// The four paths of a resource type.
    public enum Path: CaseIterable, Sendable, Hashable {
        /// `/TYPE`.
        case collection
        /// `/TYPE/ID`.
        case resource
        /// `/TYPE/ID/NAME`.
        case related
        /// `/TYPE/ID/relationships/NAME`.
        case relationship

        /// The path's segments after the type, with `id` and `relationship` for its parameters:
        /// `["id", "relationships", "relationship"]` spelled by `parameter`, the literal
        /// `relationships` as it is.
        ///
        /// ```swift
        /// ResourceRoute.Path.relationship.segments { ":" + $0 }   // [":id", "relationships", ":relationship"]
        /// ```
        public func segments(parameter: (String) -> String) -> [String] {
            switch self {
            case .collection: []
            case .resource: [parameter("id")]
            case .related: [parameter("id"), parameter("relationship")]
            case .relationship: [parameter("id"), "relationships", parameter("relationship")]
            }
        }

        /// The path written out for `type`, with `{id}` and `{relationship}` for its parameters
        /// (`/books/{id}/relationships/{relationship}`).
        public func template(type: String) -> String {
            "/" + ([type] + segments { "{\($0)}" }).joined(separator: "/")
        }
    }

    /// The method, upper case.
    public var method: String {
        switch self {
        case .list, .show, .related, .showRelationship: "GET"
        case .create, .addToRelationship: "POST"
        case .update, .replaceRelationship: "PATCH"
        case .delete, .removeFromRelationship: "DELETE"
        }
    }

    /// The path the route is a method of.
    public var path: Path {
        switch self {
        case .list, .create: .collection
        case .show, .update, .delete: .resource
        case .related: .related
        case .showRelationship, .replaceRelationship, .addToRelationship, .removeFromRelationship: .relationship
        }
    }

    /// The operation a declaration must serve for the route to be served.
    public var operation: ResourceOperations {
        switch self {
        case .list: .list
        case .create: .create
        case .show, .related, .showRelationship: .read
        case .update: .update
        case .delete: .delete
        case .replaceRelationship, .addToRelationship, .removeFromRelationship: .changeRelationships
        }
    }

    /// Whether the route is served for to-many relationships only: adding and removing members
    /// is not defined for a to-one.
    public var needsToMany: Bool {
        self == .addToRelationship || self == .removeFromRelationship
    }
}

/// A set of handlers with one optional handler per ``ResourceRoute``, as each adapter's
/// `JSONAPIResourceRoutes` holds them; ``subscript(_:)`` reads and sets the handler of a
/// route, so that code registering routes from the table names no handler by hand.
public protocol ResourceRouteHandlers {
    /// What handles one route.
    associatedtype Handler
    /// ``ResourceRoute/list``.
    var collection: Handler? { get set }
    /// ``ResourceRoute/create``.
    var create: Handler? { get set }
    /// ``ResourceRoute/show``.
    var resource: Handler? { get set }
    /// ``ResourceRoute/update``.
    var update: Handler? { get set }
    /// ``ResourceRoute/delete``.
    var delete: Handler? { get set }
    /// ``ResourceRoute/related``.
    var related: Handler? { get set }
    /// ``ResourceRoute/showRelationship``.
    var relationship: Handler? { get set }
    /// ``ResourceRoute/replaceRelationship``.
    var replaceRelationship: Handler? { get set }
    /// ``ResourceRoute/addToRelationship``.
    var addToRelationship: Handler? { get set }
    /// ``ResourceRoute/removeFromRelationship``.
    var removeFromRelationship: Handler? { get set }
}

extension ResourceRouteHandlers {
    /// The handler of `route`.
    public subscript(route: ResourceRoute) -> Handler? {
        get {
            switch route {
            case .list: collection
            case .create: create
            case .show: resource
            case .update: update
            case .delete: delete
            case .related: related
            case .showRelationship: relationship
            case .replaceRelationship: replaceRelationship
            case .addToRelationship: addToRelationship
            case .removeFromRelationship: removeFromRelationship
            }
        }
        set {
            switch route {
            case .list: collection = newValue
            case .create: create = newValue
            case .show: resource = newValue
            case .update: update = newValue
            case .delete: delete = newValue
            case .related: related = newValue
            case .showRelationship: relationship = newValue
            case .replaceRelationship: replaceRelationship = newValue
            case .addToRelationship: addToRelationship = newValue
            case .removeFromRelationship: removeFromRelationship = newValue
            }
        }
    }
}

extension ResourceRequest.Endpoint {
    /// The path of the endpoint, without its id and relationship name.
    public var path: ResourceRoute.Path {
        switch self {
        case .collection: .collection
        case .resource: .resource
        case .related: .related
        case .relationship: .relationship
        }
    }
}

extension ResourceService {
    /// The routes served for `type`, in the order of the cases of ``ResourceRoute``: those whose
    /// ``ResourceRoute/operation`` its declaration serves. Empty for a type that is not served.
    ///
    /// A route that needs a to-many relationship is listed when the type serves relationship
    /// changes at all; a request for it on a to-one is a 405 (``methods(type:endpoint:)``).
    public func routes(type: String) -> [ResourceRoute] {
        guard let resource = resources[type] else { return [] }
        return ResourceRoute.allCases.filter { resource.operations.contains($0.operation) }
    }

    /// The methods `endpoint` of `type` answers, in the order of an `Allow` header; empty for a
    /// type that is not served. These are the methods of ``routes(type:)`` on the endpoint's
    /// path, without those that need a to-many relationship when the endpoint names a to-one
    /// (`GET` and `PATCH` there). An endpoint naming no relationship, or one the type does not
    /// have, stands for any relationship.
    public func methods(type: String, endpoint: ResourceRequest.Endpoint) -> [String] {
        guard let resource = resources[type] else { return [] }
        var toOne = false
        if case .relationship(_, let name) = endpoint {
            toOne = resource.shape.relationship(name)?.cardinality == .toOne
        }
        return routes(type: type).filter { $0.path == endpoint.path && !($0.needsToMany && toOne) }.map(\.method)
    }
}
