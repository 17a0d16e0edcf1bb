import Foundation
import JSONAPI
import JSONAPIServer
import OpenAPIKit

extension ResourceService {
    /// The service's OpenAPI 3.1 document, written from its declarations: for every served type
    /// the routes of the operations it allows (`ResourceDeclaration.operations`), request bodies
    /// without its hidden and read-only members and with the `id` its client-id policy allows,
    /// the query parameters of its rules (include paths, fieldsets, sortable fields, page limits)
    /// and a `filter[NAME]` for each filterable attribute (and `id`), typed as the attribute is; `If-Match`
    /// as a required header where the declaration requires it; and the Atomic Operations
    /// endpoint at `operationsPath` when given and some type accepts a change. A read-only
    /// relationship keeps its change routes: JSON:API answers them 403, not 405.
    ///
    /// ```swift
    /// let document = service.openAPIDocument(title: "Library", version: "1.0")
    /// document.paths.keys   // /authors, /authors/{id}, ..., /books, /books/{id}, ...
    /// ```
    ///
    /// A `filter=EXPRESSION` parameter is accepted as well (the filter language); the document
    /// describes `filter` by its `filter[NAME]` form, which OpenAPI's `deepObject` can say.
    ///
    /// - Parameters:
    ///   - title: The document's `info.title`.
    ///   - version: The API's version (`info.version`).
    ///   - description: The document's `info.description`.
    ///   - operationsPath: The path of the service's Atomic Operations endpoint, or nil for none.
    ///   - options: How resources are encoded; the write rules are taken from the declarations.
    public func openAPIDocument(
        title: String, version: String, description: String? = nil, operationsPath: String? = nil,
        options: JSONAPISchemaOptions = JSONAPISchemaOptions()
    ) -> OpenAPI.Document {
        let described = resourceTypes.compactMap { self.description(of: $0) }
        let byType = Dictionary(described.map { ($0.shape.resourceType, $0) }, uniquingKeysWith: { first, _ in first })
        var options = options
        // The service resolves a linkage `lid` only to a resource an earlier Atomic operation
        // added, which no schema can check: its documents link by `id`.
        options.allowsLocalIdentifierLinkage = false
        for resource in described {
            let createID: JSONAPISchemaOptions.WriteRules.CreateID
            switch resource.clientIDs {
            case .forbidden: createID = .forbidden
            case .allowed: createID = .optional
            case .required: createID = .required
            }
            var writes: Set<JSONAPISchemaOptions.WriteRules.Operation> = []
            if resource.operations.contains(.create) { writes.insert(.create) }
            if resource.operations.contains(.update) { writes.insert(.update) }
            if resource.operations.contains(.delete) { writes.insert(.delete) }
            if resource.operations.contains(.changeRelationships) { writes.insert(.changeRelationships) }
            options.writeRules[resource.shape.resourceType] = .init(
                readOnly: resource.readOnly, createID: createID, operations: writes)
        }
        let api = JSONAPIComponents(shapes: described.map(\.shape), options: options)
        var paths = api.paths(
            rules: { type in byType[type]?.collectionRules ?? QueryRules() },
            queryOptions: configuration.queryOptions,
            filters: { type in byType[type].map(Self.filterSchema) })
        for resource in described {
            restrict(&paths, to: resource)
        }
        let writable = options.writeRules.values.contains { !$0.operations.isEmpty }
        if let operationsPath, writable {
            paths[OpenAPI.Path(rawValue: operationsPath)] = .b(api.atomicOperationsPathItem())
        }
        return OpenAPI.Document(
            openAPIVersion: .v3_1_1, info: .init(title: title, description: description, version: version),
            servers: [], paths: paths, components: api.components)
    }

    /// Serves ``openAPIDocument(title:version:description:operationsPath:options:)`` at
    /// `GET /openapi.json` through the adapters, as JSON with sorted keys. The document is
    /// written when an adapter adds the service's routes, from the declarations served then.
    ///
    /// ```swift
    /// var service = ResourceService()
    /// service.serve(ResourceDeclaration(source: InMemoryDataSource<Book>()))
    /// service.serveOpenAPIDocument(title: "Library", version: "1.0")
    /// router.addJSONAPIService(service)   // GET /openapi.json
    /// ```
    public mutating func serveOpenAPIDocument(
        title: String, version: String, description: String? = nil,
        options: JSONAPISchemaOptions = JSONAPISchemaOptions()
    ) {
        openAPIDocument = { service, operationsPath in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let document = service.openAPIDocument(
                title: title, version: version, description: description, operationsPath: operationsPath,
                options: options)
            return Array(try encoder.encode(document))
        }
    }

    /// The `filter` object of a collection: one member per filterable attribute, a value of the
    /// attribute's JSON type, and `id` when the id is filterable.
    static func filterSchema(_ resource: ResourceDescription) -> JSONSchema {
        var properties: OrderedDictionary<String, JSONSchema> = [:]
        if resource.filterable.contains("id") {
            properties["id"] = .string(required: false, description: "The resource whose `id` is this value.")
        }
        for attribute in resource.shape.attributes where resource.filterable.contains(attribute.name) {
            let description = "Resources whose `\(attribute.name)` equals this value."
            switch attribute.value.kind {
            case .integer:
                properties[attribute.name] = ResourceSchemaBuilder.integerSchema(
                    typeName: attribute.value.typeName, required: false, description: description)
            case .number: properties[attribute.name] = .number(required: false, description: description)
            case .boolean: properties[attribute.name] = .boolean(required: false, description: description)
            default: properties[attribute.name] = .string(required: false, description: description)
            }
        }
        return .object(properties: properties, additionalProperties: .a(false))
    }

    /// Leaves in `paths` exactly the routes the service serves for `resource`
    /// (``JSONAPIServer/ResourceService/methods(type:endpoint:)``, from the one table of
    /// ``JSONAPIServer/ResourceRoute``), and adds `If-Match` where the declaration requires it.
    func restrict(_ paths: inout OpenAPI.PathItem.Map, to resource: ResourceDescription) {
        let type = resource.shape.resourceType
        let ifMatch = OpenAPI.Parameter(
            name: "If-Match", context: .header(required: true, schema: .string(minLength: 1)),
            description: "The `ETag` of the resource as last read: a write to a changed resource is a 412.")
        func edit(_ path: OpenAPI.Path, _ endpoint: ResourceRequest.Endpoint) {
            guard case .b(var item)? = paths[path] else { return }
            let served = Set(methods(type: type, endpoint: endpoint))
            for operation in item.endpoints where !served.contains(operation.method.rawValue.uppercased()) {
                item[operation.method] = nil
            }
            if resource.requiresIfMatch {
                item.patch?.parameters.append(.b(ifMatch))
                if endpoint.path == .relationship { item.post?.parameters.append(.b(ifMatch)) }
                item.delete?.parameters.append(.b(ifMatch))
            }
            paths[path] = item.endpoints.isEmpty ? nil : .b(item)
        }
        edit(OpenAPI.Path([type]), .collection)
        edit(OpenAPI.Path([type, "{id}"]), .resource(id: ""))
        for relationship in resource.shape.relationships {
            // Member names are the coding keys: the service writes them as declared.
            let name = relationship.name
            edit(OpenAPI.Path([type, "{id}", name]), .related(id: "", relationship: name))
            edit(OpenAPI.Path([type, "{id}", "relationships", name]), .relationship(id: "", relationship: name))
        }
    }
}
