import JSONAPI
import OpenAPIKit

extension JSONAPIComponents {
    /// The media type of Atomic Operations requests and results:
    /// `application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"`.
    public static var atomicOperationsContentType: OpenAPI.ContentType {
        OpenAPI.ContentType(rawValue: "\(JSONAPIMediaType.base); ext=\"\(AtomicOperations.extensionURI)\"")
            ?? .jsonapi
    }

    /// The Atomic Operations endpoint (`POST /operations` by convention) over the models: its
    /// request body, sent with the extension's media type, holds `atomic:operations`, each one
    /// of
    ///
    /// | `op` | `ref` | `data` |
    /// |---|---|---|
    /// | `add` | | a new resource object of one of the models (a create body's `data`) |
    /// | `update` | | a resource object of one of the models with what changes (an update body's `data`) |
    /// | `remove` | `type` and `id` | |
    /// | `add`, `remove` | `type`, `id` and `relationship` | an array of resource identifiers |
    /// | `update` | `type`, `id` and `relationship` | null, one resource identifier or an array |
    ///
    /// with an optional `meta`, as `Document.atomicOperations()` checks them, each for the types
    /// whose ``JSONAPISchemaOptions/WriteRules`` accept it. The answer is 200
    /// with `atomic:results` (each result's `data` a resource object of one of the models, or
    /// absent) or 204 when no operation returned anything, and `4XX`/`5XX` with the error
    /// document.
    ///
    /// ```swift
    /// var paths = api.paths()
    /// paths["/operations"] = .b(api.atomicOperationsPathItem())
    /// ```
    ///
    /// - Returns: The path item, with one `POST` operation (`performAtomicOperations`).
    public func atomicOperationsPathItem() -> OpenAPI.PathItem {
        var modelOfType: [String: ResourceShape] = [:]
        var types: [String] = []
        for shape in shapes where modelOfType[shape.resourceType] == nil {
            modelOfType[shape.resourceType] = shape
            types.append(shape.resourceType)
        }
        let shared = SchemaBuilder.referencing
        let builders = types.compactMap { type in
            modelOfType[type].map { ResourceSchemaBuilder(shape: $0, options: options, shared: shared) }
        }
        func accepting(_ operation: JSONAPISchemaOptions.WriteRules.Operation) -> [ResourceSchemaBuilder] {
            builders.filter {
                (options.writeRules[$0.shape.resourceType] ?? JSONAPISchemaOptions.WriteRules()).operations
                    .contains(operation)
            }
        }
        func typeSchema(_ builders: [ResourceSchemaBuilder]) -> JSONSchema {
            .string(allowedValues: builders.map { AnyCodable($0.shape.resourceType) })
        }
        let changingRelationships = accepting(.changeRelationships)
        // `add` and `remove` change to-many relationships; `update` any.
        var relationshipNames: [String] = []
        var toManyNames: [String] = []
        for builder in changingRelationships {
            for relationship in builder.shape.relationships {
                let name = builder.name(relationship.name)
                if !relationshipNames.contains(name) { relationshipNames.append(name) }
                if relationship.cardinality == .toMany, !toManyNames.contains(name) { toManyNames.append(name) }
            }
        }
        let meta = shared.schema(.meta, required: false)
        let identifier = JSONSchema.object(
            description: "A resource identifier object.",
            properties: [
                "type": .string(allowedValues: types.map { AnyCodable($0) }), "id": .string(minLength: 1), "meta": meta,
            ],
            additionalProperties: .a(false))
        func target(_ builders: [ResourceSchemaBuilder], relationships: [String]?) -> JSONSchema {
            var properties: OrderedDictionary<String, JSONSchema> = [
                "type": typeSchema(builders), "id": .string(minLength: 1),
            ]
            if let relationships {
                properties["relationship"] = .string(allowedValues: relationships.map { AnyCodable($0) })
            }
            let relationship = relationships != nil
            return .object(
                description: relationship ? "The relationship the operation changes." : "The resource removed.",
                properties: properties, additionalProperties: .a(false))
        }
        func operation(
            _ ops: [String], description: String, ref: JSONSchema?, data: JSONSchema?
        ) -> JSONSchema {
            var properties: OrderedDictionary<String, JSONSchema> = [
                "op": .string(allowedValues: ops.map { AnyCodable($0) })
            ]
            if let ref { properties["ref"] = ref }
            if let data { properties["data"] = data }
            properties["meta"] = meta
            return .object(description: description, properties: properties, additionalProperties: .a(false))
        }
        func oneOf(_ schemas: [JSONSchema]) -> JSONSchema {
            schemas.count == 1 ? schemas[0] : .any(of: schemas, core: .init())
        }
        var operations: [JSONSchema] = []
        let creating = accepting(.create)
        if !creating.isEmpty {
            operations.append(
                operation(
                    ["add"], description: "Creates a resource.", ref: nil,
                    data: oneOf(creating.map { $0.resourceObject(.create) })))
        }
        let updating = accepting(.update)
        if !updating.isEmpty {
            operations.append(
                operation(
                    ["update"], description: "Updates a resource.", ref: nil,
                    data: oneOf(updating.map { $0.resourceObject(.update) })))
        }
        let deleting = accepting(.delete)
        if !deleting.isEmpty {
            operations.append(
                operation(
                    ["remove"], description: "Removes a resource.", ref: target(deleting, relationships: nil), data: nil
                ))
        }
        if !toManyNames.isEmpty {
            operations.append(
                operation(
                    ["add", "remove"], description: "Adds members to a to-many relationship, or removes them.",
                    ref: target(changingRelationships, relationships: toManyNames), data: .array(items: identifier)))
        }
        if !relationshipNames.isEmpty {
            operations.append(
                operation(
                    ["update"], description: "Replaces a relationship's linkage.",
                    ref: target(changingRelationships, relationships: relationshipNames),
                    data: .any(of: [.null(), identifier, .array(items: identifier)], core: .init())))
        }
        let requestSchema = JSONSchema.object(
            description: "An Atomic Operations request: operations applied in order, all or none.",
            properties: [
                AtomicOperations.operationsMember: .array(minItems: 1, items: .any(of: operations, core: .init())),
                "meta": meta,
                "links": shared.schema(.topLevelLinks, required: false),
                "jsonapi": shared.schema(.jsonapiObject, required: false),
            ],
            additionalProperties: .a(false))

        let resources = types.compactMap { type in
            modelOfType[type].flatMap { names(forTypeNamed: $0.typeName) }.map { reference(to: $0.resource) }
        }
        var resultProperties: OrderedDictionary<String, JSONSchema> = [:]
        if !resources.isEmpty { resultProperties["data"] = oneOf(resources).requiring(false) }
        resultProperties["meta"] = meta
        let resultsSchema = JSONSchema.object(
            description: "The results of the operations, one per operation, in order.",
            properties: [
                AtomicOperations.resultsMember: .array(
                    items: .object(properties: resultProperties, additionalProperties: .a(false))),
                "meta": meta,
                "links": shared.schema(.topLevelLinks, required: false),
                "jsonapi": shared.schema(.jsonapiObject, required: false),
            ],
            additionalProperties: .a(false))

        let contentType = Self.atomicOperationsContentType
        var responses: OpenAPI.Response.Map = [
            200: .response(
                description: "The results.", content: [contentType: .b(OpenAPI.Content(schema: resultsSchema))]),
            204: .response(description: "Done; no operation returned data or meta."),
        ]
        let errors = OpenAPI.Content(schema: reference(to: Self.errorDocumentName))
        responses[.range(.clientError)] = .response(description: "An error document.", content: [.jsonapi: .b(errors)])
        responses[.range(.serverError)] = .response(description: "An error document.", content: [.jsonapi: .b(errors)])
        return OpenAPI.PathItem(
            post: OpenAPI.Operation(
                tags: ["operations"], summary: "Perform Atomic Operations.", operationId: "performAtomicOperations",
                requestBody: OpenAPI.Request(
                    content: [contentType: .b(OpenAPI.Content(schema: requestSchema))], required: true),
                responses: responses))
    }
}
