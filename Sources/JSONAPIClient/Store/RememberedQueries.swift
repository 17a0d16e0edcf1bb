import JSONAPI

/// The reads a client answers again from its store (``JSONAPIClient/Configuration/queryLifetime``):
/// for each `GET` the server answered with resources, which resources it held, in which places,
/// with which members, and the document's top-level `meta`, `links` and `jsonapi`.
///
/// An answer from the store is the remembered document with each resource as the store holds it
/// now: later responses, relationship changes and optimistic writes show in it, and a member the
/// server did not send in the first answer (another sparse fieldset brought it) is left out, so
/// the answer has the shape the request asked for. A resource the store no longer holds (deleted,
/// forgotten under its bound) makes the remembered read unusable: the request goes to the server.
final class RememberedQueries: Sendable {
    /// One resource of a remembered answer: its identity and the members it came with.
    struct Member: Sendable {
        var key: ResourceStore.Key
        var attributes: Set<String>
        var relationships: Set<String>
        var hasLinks: Bool
        var hasMeta: Bool

        init(_ resource: ResourceObject, key: ResourceStore.Key) {
            self.key = key
            attributes = Set(resource.attributes.keys)
            relationships = Set(resource.relationships.map(\.name))
            hasLinks = resource.links != nil
            hasMeta = resource.meta != nil
        }

        /// The store's copy with only the members the server sent with this one.
        func shaped(_ current: JSONAPIResourceObject) -> JSONAPIResourceObject {
            var resource = current
            resource.attributes.members.removeAll { !attributes.contains($0.key) }
            resource.relationships.members.removeAll { !relationships.contains($0.key) }
            if !hasLinks { resource.links = nil }
            if !hasMeta { resource.meta = nil }
            return resource
        }
    }

    /// A remembered answer.
    struct Query: Sendable {
        /// `data` as `null`, one resource or an array.
        enum Shape: Sendable { case null, one, many }
        var shape: Shape
        var primary: [Member]
        var included: [Member]
        var meta: JSON?
        var links: JSON?
        var jsonapi: JSON?
        var status: Int
        var headers: JSONAPIHTTPHeaders
        var answered: ContinuousClock.Instant
    }

    private let queries = Locked<[String: Query]>([:])

    /// What identifies a request: its URL and every header field as sent, credentials included,
    /// so that an answer is never given to a request another user made.
    static func fingerprint(_ request: JSONAPIHTTPRequest) -> String {
        let fields = request.headers.fields.map { $0.name.lowercased() + ":" + $0.value }.sorted()
        return ([request.url] + fields).joined(separator: "\n")
    }

    /// The fields an answer from the store carries: the server's `Content-Type` only. The others
    /// (`Content-Length`, `ETag`, `Date`, caching) describe the bytes the server sent, which an
    /// answer built from the store's current copies is not.
    static func representationFields(_ headers: JSONAPIHTTPHeaders) -> JSONAPIHTTPHeaders {
        JSONAPIHTTPHeaders(headers.fields.filter { JSONAPIHTTPHeaders.same($0.name, "Content-Type") })
    }

    /// Remembers the server's answer to `request`, when its primary data is resources (or
    /// `null`) that all have ids; anything else (linkage, a resource without an id) is not
    /// answered from the store.
    func remember(
        _ request: JSONAPIHTTPRequest, status: Int, headers: JSONAPIHTTPHeaders, document: Document,
        at now: ContinuousClock.Instant
    ) {
        func members(_ resources: some Sequence<ResourceObject>) -> [Member]? {
            var result: [Member] = []
            for resource in resources {
                guard let id = resource.id else { return nil }
                result.append(Member(resource, key: ResourceStore.Key(type: resource.type, id: id)))
            }
            return result
        }
        let shape: Query.Shape
        let primary: [Member]?
        switch document.primary {
        case .null:
            shape = .null
            primary = []
        case .one(let resource):
            shape = .one
            primary = members([resource])
        case .many(let resources):
            shape = .many
            primary = members(resources)
        case .absent, .identifier, .identifiers:
            return
        }
        guard let primary, let included = members(document.included) else { return }
        let query = Query(
            shape: shape, primary: primary, included: included, meta: document.meta.map { JSON($0) },
            links: document.links.map { JSON($0.jsonValue) }, jsonapi: document.jsonapi.map { JSON($0.jsonValue) },
            status: status, headers: Self.representationFields(headers), answered: now)
        let fingerprint = Self.fingerprint(request)
        queries.withLock { $0[fingerprint] = query }
    }

    /// The answer to `request` built from `store`, when the server answered the same request
    /// less than `lifetime` ago and the store still holds every resource of that answer.
    func answer(
        _ request: JSONAPIHTTPRequest, from store: ResourceStore, lifetime: Duration, at now: ContinuousClock.Instant,
        parsing: ParsingOptions
    ) -> (status: Int, headers: JSONAPIHTTPHeaders, document: Document)? {
        let fingerprint = Self.fingerprint(request)
        guard let query = queries.withLock({ $0[fingerprint] }) else { return nil }
        guard now - query.answered < lifetime else {
            forget(fingerprint)
            return nil
        }
        let members = query.primary + query.included
        guard let current = store.current(members.map(\.key)) else {
            forget(fingerprint)
            return nil
        }
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("data")
        let resources = zip(members, current).map { $0.shaped($1) }
        switch query.shape {
        case .null:
            writer.null()
        case .one:
            guard let resource = resources.first else { return nil }
            resource.write(to: &writer, sortingKeys: false)
        case .many:
            writer.beginArray()
            for resource in resources.prefix(query.primary.count) { resource.write(to: &writer, sortingKeys: false) }
            writer.endArray()
        }
        if !query.included.isEmpty {
            writer.key("included")
            writer.beginArray()
            for resource in resources.dropFirst(query.primary.count) { resource.write(to: &writer, sortingKeys: false) }
            writer.endArray()
        }
        for (name, value) in [("meta", query.meta), ("links", query.links), ("jsonapi", query.jsonapi)] {
            guard let value else { continue }
            writer.key(name)
            value.write(to: &writer, sortingKeys: false)
        }
        writer.endObject()
        var options = parsing
        options.kind = .response
        guard let bytes = try? writer.finish(), let document = try? Document(parsing: bytes, options: options) else {
            return nil
        }
        return (query.status, query.headers, document)
    }

    /// Forgets every remembered answer: a write may move resources into or out of any result.
    func forgetAll() {
        queries.withLock { $0.removeAll() }
    }

    private func forget(_ fingerprint: String) {
        _ = queries.withLock { $0.removeValue(forKey: fingerprint) }
    }
}
