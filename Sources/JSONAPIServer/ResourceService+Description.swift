import JSONAPI

/// One served resource type as clients see it: the members they read and write, the operations
/// and the query parameters of its endpoints. What `JSONAPIOpenAPI` describes the service from.
public struct ResourceDescription: Sendable {
    /// The model's shape without its hidden members: what responses carry.
    public var shape: ResourceShape
    /// The members refused in requests (``ResourceFields/readOnly``).
    public var readOnly: Set<String>
    /// The attributes `filter[NAME]` and filter expressions may name.
    public var filterable: Set<String>
    /// The operations served.
    public var operations: ResourceOperations
    /// Whether a create may, must or must not carry an id.
    public var clientIDs: ClientIDPolicy
    /// Whether `PATCH` and `DELETE` need `If-Match`.
    public var requiresIfMatch: Bool
    /// The query rules of the collection (`GET /TYPE`).
    public var collectionRules: QueryRules
    /// The query rules of one resource and of a related endpoint whose data is of this type.
    public var resourceRules: QueryRules
}

extension ResourceService {
    /// What the service serves for `type`, or nil for a type it does not serve.
    ///
    /// ```swift
    /// let books = service.description(of: "books")
    /// books?.shape.attributes.map(\.name)   // ["title", "year"], without hidden members
    /// books?.collectionRules.sortFields     // .only(["title", "year"])
    /// ```
    public func description(of type: String) -> ResourceDescription? {
        guard let resource = resources[type] else { return nil }
        let hidden = resource.fields.hidden
        var shape = resource.shape
        shape.attributes.removeAll { hidden.contains($0.name) }
        shape.relationships.removeAll { hidden.contains($0.name) }
        let refusesNullCharacter = resource.refusesNullCharacterInText
        if refusesNullCharacter, case .string? = shape.id?.kind {
            shape.id?.bounds = ValueBounds(excludesNullCharacter: true)
        }
        for index in shape.attributes.indices {
            var bounds = resource.bounds[shape.attributes[index].name]
            if refusesNullCharacter, case .string = shape.attributes[index].value.kind {
                bounds = bounds ?? ValueBounds()
                bounds?.excludesNullCharacter = true
            }
            shape.attributes[index].value.bounds = bounds
        }
        return ResourceDescription(
            shape: shape, readOnly: resource.fields.readOnly.subtracting(hidden),
            filterable: resource.fields.filterable.subtracting(hidden), operations: resource.operations,
            clientIDs: resource.clientIDs, requiresIfMatch: resource.requiresIfMatch,
            collectionRules: rules(for: resource, collection: true),
            resourceRules: rules(for: resource, collection: false))
    }

    /// The service's OpenAPI document as JSON, for `GET /openapi.json`: ``openAPIDocument``
    /// applied to this service, or nil when it has none. The adapters call it once, when they
    /// add the service's routes, with the path of their Atomic Operations endpoint.
    public func openAPIJSON(operationsPath: String?) throws -> [UInt8]? {
        try openAPIDocument?(self, operationsPath)
    }
}
