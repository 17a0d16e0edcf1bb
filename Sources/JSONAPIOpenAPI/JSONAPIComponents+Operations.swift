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
    /// with an optional `meta`, as `Document.atomicOperations()` checks them. The answer is 200
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
        let typeSchema = JSONSchema.string(allowedValues: types.map { AnyCodable($0) })
        var relationshipNames: [String] = []
        for builder in builders {
            for relationship in builder.shape.relationships
            where !relationshipNames.contains(builder.name(relationship.name)) {
                relationshipNames.append(builder.name(relationship.name))
            }
        }
        let meta = shared.schema(.meta, required: false)
        let identifier = JSONSchema.object(
            description: "A resource identifier object.",
            properties: ["type": typeSchema, "id": .string(minLength: 1), "meta": meta],
            additionalProperties: .a(false))
        func target(relationship: Bool) -> JSONSchema {
            var properties: OrderedDictionary<String, JSONSchema> = ["type": typeSchema, "id": .string(minLength: 1)]
            if relationship {
                properties["relationship"] = .string(allowedValues: relationshipNames.map { AnyCodable($0) })
            }
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
        if !builders.isEmpty {
            operations.append(
                operation(
                    ["add"], description: "Creates a resource.", ref: nil,
                    data: oneOf(builders.map { $0.resourceObject(.create) })))
            operations.append(
                operation(
                    ["update"], description: "Updates a resource.", ref: nil,
                    data: oneOf(builders.map { $0.resourceObject(.update) })))
        }
        operations.append(
            operation(["remove"], description: "Removes a resource.", ref: target(relationship: false), data: nil))
        if !relationshipNames.isEmpty {
            operations.append(
                operation(
                    ["add", "remove"], description: "Adds members to a to-many relationship, or removes them.",
                    ref: target(relationship: true), data: .array(items: identifier)))
            operations.append(
                operation(
                    ["update"], description: "Replaces a relationship's linkage.", ref: target(relationship: true),
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
