import JSONAPI

/// A decoded response: the value asked for, with the document's top-level `meta` and `links`,
/// the resources the decoder left out, and the response itself.
public struct DecodedResponse<Value> {
    /// The decoded value: models, one model, or identifiers.
    public var value: Value
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: JSONAPIHTTPHeaders
    /// The parsed document (its views read it on demand: `document.included`, `document.meta`).
    public var document: Document
    /// Resources left out of ``value`` because they were missing from the document or of a type
    /// the model does not handle (with `DecodingOptions.ignoresMissingResources` or
    /// `ignoresUnhandledResourceTypes`).
    public var skipped: [SkippedResource]

    /// The document's top-level `meta` (nil when absent).
    public var meta: JSON.Object? { document.meta.map { JSON($0).objectValue ?? [:] } }
    /// The document's top-level `links` (nil when absent).
    public var links: JSONAPILinks? { document.links.map(JSONAPILinks.init) }
    /// The `links.next` URL, when the document has one.
    public var next: String? { document.links?["next"]?.href }
}

extension DecodedResponse: Sendable where Value: Sendable {}

/// The response to a create, update or delete.
///
/// JSON:API lets a server answer a write in several ways, all kept apart here:
/// - `201 Created` (or `200 OK`) with the resource as the server stored it: ``resource``;
/// - `202 Accepted`: the request is queued (``isAccepted``), perhaps with a document describing it;
/// - `204 No Content`: done, and the server's resource is what was sent (no ``document``);
/// - `201 Created` without a body: created, and as with `204` the resource sent stands as the
///   server's (no ``document``, no ``resource``; ``location`` when the server gave one).
///
/// In the last two cases ``isSentResourceAccepted`` is true: JSON:API has the client treat the
/// resource object it sent as accepted, as if the server had returned it. The client does not
/// make a model of it (a create with a server-assigned id sent none); the caller still has it.
public struct WriteResponse<Model> {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: JSONAPIHTTPHeaders
    /// The parsed body, when there was one.
    public var document: Document?
    /// The resource in the response's primary data, decoded; nil for `204`, `202` without one, or
    /// a delete's meta-only document.
    public var resource: Model?

    /// `202 Accepted`: the server will do the work later.
    public var isAccepted: Bool { status == 202 }
    /// A create or update answered `204 No Content`, or `201 Created` without a body: the server
    /// holds the resource exactly as it was sent.
    public var isSentResourceAccepted: Bool { document == nil && (status == 201 || status == 204) }
    /// The `Location` header (a created resource's URL).
    public var location: String? { headers["Location"] }
    /// The document's top-level `meta` (nil when absent).
    public var meta: JSON.Object? { document?.meta.map { JSON($0).objectValue ?? [:] } }
}

extension WriteResponse: Sendable where Model: Sendable {}
