import JSONAPI

/// One resource type as a ``ResourceService`` serves it: its model, its data source, and what
/// clients may do with it.
///
/// Everything has a default worked out from the model's shape (`ResourceShape`): every
/// attribute and relationship readable and writable, scalar attributes sortable and filterable,
/// every relationship includable, every operation allowed, server-chosen ids, pages of 20 (at
/// most 100). Change what the resource needs:
///
/// ```swift
/// var books = ResourceDeclaration(source: InMemoryDataSource<Book>())
/// books.fields.readOnly = ["rating"]                    // a 422 when a request sets it
/// books.fields.sortable = ["title", "year"]
/// books.clientIDs = .allowed
/// books.requiresIfMatch = true                           // PATCH and DELETE need If-Match (428)
/// books.validation.length(\.title, 1...200)
/// books.authorize = { action, request in
///     if case .delete = action, request.userInfo["role"] as? String != "admin" { return .forbid() }
///     return .allow
/// }
/// ```
public struct ResourceDeclaration<Source: ResourceDataSource>: Sendable {
    /// The model type.
    public typealias Model = Source.Model

    /// Where the models live.
    public var source: Source
    /// The model's shape: its attributes and relationships, as the encoder and decoder see them.
    public let shape: ResourceShape
    /// What clients may read, write, sort, filter and include.
    public var fields: ResourceFields
    /// The operations served; a request for another answers 405 (or 403 for a relationship
    /// change the resource does not allow).
    public var operations: ResourceOperations = .all
    /// Whether a create may carry the id (``ClientIDPolicy``). Default ``ClientIDPolicy/forbidden``.
    public var clientIDs: ClientIDPolicy = .forbidden
    /// The collection's pagination; `page[size]` past its maximum is a 400.
    public var pagination: QueryRules.Pagination = .pages(defaultSize: 20, maximumSize: 100)
    /// Whether `GET /TYPE` answers the whole collection, written as the data source's
    /// ``ResourceDataSource/stream(_:)`` delivers it, in bounded memory, instead of in pages.
    /// Default false. A streamed collection takes no `page` parameters and has no `ETag` (its
    /// bytes are not known before they are sent) nor `meta.total`; `included` follows `data`,
    /// each resource once. A source error after the first bytes ends the response early, so the
    /// client sees a document cut short, never a wrong one. `HEAD` answers GET's status and
    /// header fields without writing the collection; its head has no `Content-Length` on
    /// Hummingbird, while Vapor frames it with `Content-Length: 0` (GET's length is not known
    /// before it is written), which a client must not take for GET's.
    public var streamsCollections = false
    /// Whether updates, deletes and relationship changes must carry `If-Match` (428 without it).
    /// Default false: an `If-Match` that is sent is checked either way.
    public var requiresIfMatch = false
    /// Decides whether a request may do what it asks; nil allows everything.
    public var authorize: (@Sendable (ResourceAction, ResourceRequest) async throws -> AccessDecision)?
    /// Runs after a write is decoded and validated, before the data source stores it; it may
    /// change the model (timestamps, owners) or throw to refuse.
    public var beforeWrite: (@Sendable (inout Model, ResourceWrite, ResourceRequest) async throws -> Void)?
    /// Runs after the data source stored a write (or deleted the model).
    public var afterWrite: (@Sendable (Model, ResourceWrite, ResourceRequest) async throws -> Void)?
    /// Checks a model before it is written; every failing check is one error object of a 422.
    public var validation = ResourceValidation<Model>()

    /// Declares the resource served from `source`, with the defaults worked out from its model.
    public init(_ model: Model.Type = Model.self, source: Source) {
        self.source = source
        let shape = ResourceShape(of: Model.self)
        self.shape = shape
        self.fields = ResourceFields(shape: shape)
    }
}

/// What clients may do with the members of one resource type. Names are member names.
public struct ResourceFields: Sendable, Hashable {
    /// Members never written in a response nor accepted in a request (a 422 names them, as it
    /// names a member the model does not have). A hidden member the model needs must be optional
    /// or set by ``ResourceDeclaration/beforeWrite``.
    public var hidden: Set<String> = []
    /// Members written in responses and refused in requests (422 for an attribute, 403 for a
    /// relationship, as JSON:API asks).
    public var readOnly: Set<String> = []
    /// The attributes `sort` may name. Default: the attributes whose value is a string, number,
    /// boolean or enumeration.
    public var sortable: Set<String>
    /// The attributes `filter[NAME]` and filter expressions may name, and `id` for the resource
    /// id (compared for equality only: `filter[id]=7`, `filter=any(id,'2','3')`). Default: as
    /// ``sortable``, and `id`.
    public var filterable: Set<String>
    /// The relationships `include` may name. Default: all of them.
    public var includable: Set<String>

    /// The defaults for a model of this shape.
    public init(shape: ResourceShape) {
        let scalars = shape.attributes.filter { member in
            switch member.value.kind {
            case .string, .integer, .number, .boolean, .enumeration: true
            default: false
            }
        }.map(\.name)
        sortable = Set(scalars)
        filterable = Set(scalars + ["id"])
        includable = Set(shape.relationships.map(\.name))
    }
}

/// The operations a resource type serves.
public struct ResourceOperations: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `GET /TYPE`.
    public static let list = ResourceOperations(rawValue: 1 << 0)
    /// `GET /TYPE/ID`, and the related and relationship endpoints.
    public static let read = ResourceOperations(rawValue: 1 << 1)
    /// `POST /TYPE`.
    public static let create = ResourceOperations(rawValue: 1 << 2)
    /// `PATCH /TYPE/ID`.
    public static let update = ResourceOperations(rawValue: 1 << 3)
    /// `DELETE /TYPE/ID`.
    public static let delete = ResourceOperations(rawValue: 1 << 4)
    /// `PATCH`, `POST` and `DELETE` on `/TYPE/ID/relationships/NAME`.
    public static let changeRelationships = ResourceOperations(rawValue: 1 << 5)

    /// Reading only.
    public static let readOnly: ResourceOperations = [.list, .read]
    /// Everything.
    public static let all: ResourceOperations = [.list, .read, .create, .update, .delete, .changeRelationships]
}

/// Whether a create request may choose the new resource's id.
public enum ClientIDPolicy: Sendable, Hashable {
    /// The server chooses; a create with an `id` is a 403, as JSON:API requires.
    case forbidden
    /// The client may send one (409 when it is taken); the server chooses otherwise.
    case allowed
    /// The client must send one (a 422 at `/data` without it).
    case required
}

/// What a request asks to do, as an authorization rule sees it.
public enum ResourceAction: Sendable, Hashable {
    /// Read the collection.
    case list
    /// Read one resource (also when it is included, or reached through a relationship).
    case read(id: String)
    /// Create a resource.
    case create
    /// Update a resource.
    case update(id: String)
    /// Delete a resource.
    case delete(id: String)
    /// Change a relationship of a resource.
    case changeRelationship(id: String, name: String)
}

/// The answer of an authorization rule.
public enum AccessDecision: Sendable, Hashable {
    /// Go on.
    case allow
    /// 403 Forbidden, with this detail.
    case forbid(String? = nil)
    /// 404 Not Found, as if the resource did not exist; an included resource is left out.
    case hide
}

/// The kind of write a hook sees.
public enum ResourceWrite: Sendable, Hashable {
    /// A create.
    case create
    /// An update of attributes or relationships (also through a relationship endpoint).
    case update
    /// A delete.
    case delete
}

/// Declarative checks of a model, each with the member it is about: a failing check is one error
/// object of a 422, pointing at the member.
///
/// ```swift
/// var validation = ResourceValidation<Book>()
/// validation.length(\.title, 1...200)   // stated in the OpenAPI document (maxLength 200)
/// validation.check(\.year, "a year is not in the future") { $0 <= 2100 }
/// validation.problems(of: Book(id: "1", title: "", year: 3000, author: "9")).count   // 2
/// ```
public struct ResourceValidation<Model: JSONAPIResource & Sendable>: Sendable {
    private var rules: [@Sendable (Model) -> JSONAPIErrorObject?] = []

    /// No checks.
    public init() {}

    /// A check of one property: `isValid` gets its value; when it answers false, the 422 names
    /// the property's member (see `JSONAPIErrorObject.pointer`).
    public mutating func check<Value>(
        _ keyPath: KeyPath<Model, Value> & Sendable, _ detail: String, code: String = "invalid-value",
        _ isValid: @escaping @Sendable (Value) -> Bool
    ) {
        let problem = JSONAPIErrorObject.unprocessable(keyPath as PartialKeyPath<Model>, detail: detail, code: code)
        rules.append { model in isValid(model[keyPath: keyPath]) ? nil : problem }
    }

    /// A check of the whole model: it answers the error object of its problem, or nil.
    public mutating func check(_ rule: @escaping @Sendable (Model) -> JSONAPIErrorObject?) {
        rules.append(rule)
    }

    /// The limits of the members checked by `length(_:_:code:)` and `range(_:_:code:)`, by
    /// member name. Unlike a ``check(_:_:code:_:)``, which no one can read, they are stated in
    /// the service's description (``ResourceService/description(of:)``) and its OpenAPI document,
    /// so that clients and schema-driven tools send what the service accepts.
    public private(set) var bounds: [String: ValueBounds] = [:]

    /// A string property is `limits.lowerBound` to `limits.upperBound` Unicode scalars long (as
    /// JSON Schema counts length).
    ///
    /// ```swift
    /// books.validation.length(\.title, 1...200)   // 422 at /data/attributes/title; maxLength 200
    /// ```
    public mutating func length(
        _ keyPath: KeyPath<Model, String> & Sendable, _ limits: ClosedRange<Int>, code: String = "invalid-value"
    ) {
        bound(keyPath, "is \(limits.lowerBound) to \(limits.upperBound) characters long", code, \.length, limits) {
            limits.contains($0.unicodeScalars.count)
        }
    }

    /// An optional string property, when present, is `limits.lowerBound` to
    /// `limits.upperBound` Unicode scalars long.
    public mutating func length(
        _ keyPath: KeyPath<Model, String?> & Sendable, _ limits: ClosedRange<Int>, code: String = "invalid-value"
    ) {
        bound(keyPath, "is \(limits.lowerBound) to \(limits.upperBound) characters long", code, \.length, limits) {
            $0.map { limits.contains($0.unicodeScalars.count) } ?? true
        }
    }

    /// An integer property lies in `limits`.
    ///
    /// ```swift
    /// reviews.validation.range(\.stars, 1...5)   // 422 at /data/attributes/stars; minimum 1, maximum 5
    /// ```
    public mutating func range<Value: BinaryInteger & Sendable>(
        _ keyPath: KeyPath<Model, Value> & Sendable, _ limits: ClosedRange<Int>, code: String = "invalid-value"
    ) {
        bound(keyPath, "is from \(limits.lowerBound) to \(limits.upperBound)", code, \.range, limits) {
            Int(exactly: $0).map { limits.contains($0) } ?? false
        }
    }

    /// An optional integer property, when present, lies in `limits`.
    public mutating func range<Value: BinaryInteger & Sendable>(
        _ keyPath: KeyPath<Model, Value?> & Sendable, _ limits: ClosedRange<Int>, code: String = "invalid-value"
    ) {
        bound(keyPath, "is from \(limits.lowerBound) to \(limits.upperBound)", code, \.range, limits) {
            $0.map { Int(exactly: $0).map { limits.contains($0) } ?? false } ?? true
        }
    }

    /// Adds the check and records its limit under the member the 422 points at.
    private mutating func bound<Value>(
        _ keyPath: KeyPath<Model, Value> & Sendable, _ detail: String, _ code: String,
        _ limit: WritableKeyPath<ValueBounds, ClosedRange<Int>?>, _ limits: ClosedRange<Int>,
        _ isValid: @escaping @Sendable (Value) -> Bool
    ) {
        let problem = JSONAPIErrorObject.unprocessable(keyPath as PartialKeyPath<Model>, detail: "", code: code)
        let pointer = problem.source?.pointer ?? ""
        let member = Self.memberName(pointer: pointer)
        check(keyPath, "`\(member)` \(detail)", code: code, isValid)
        bounds[member, default: ValueBounds()][keyPath: limit] = limits
    }

    /// The last token of a JSON pointer, unescaped (`~1` is `/`, `~0` is `~`).
    static func memberName(pointer: String) -> String {
        let token = pointer.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return String(token).replacing("~1", with: "/").replacing("~0", with: "~")
    }

    /// The problems of `model`, in the order the checks were added.
    public func problems(of model: Model) -> [JSONAPIErrorObject] {
        rules.compactMap { $0(model) }
    }
}
