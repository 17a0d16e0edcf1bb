import JSONAPI
import OpenAPIKit

extension JSONAPIComponents {
    /// The operations of the standard JSON:API routes of every model, referring to the
    /// components' schemas:
    ///
    /// | Route | Operation | Request body | Success |
    /// |---|---|---|---|
    /// | `GET /{type}` | list | | 200 `ArticleCollectionDocument` |
    /// | `POST /{type}` | create | `ArticleCreateDocument` | 201 `ArticleDocument`, 204 |
    /// | `GET /{type}/{id}` | fetch | | 200 `ArticleDocument` |
    /// | `PATCH /{type}/{id}` | update | `ArticleUpdateDocument` | 200 `ArticleDocument`, 204 |
    /// | `DELETE /{type}/{id}` | delete | | 204 |
    /// | `GET /{type}/{id}/{name}` | fetch related | | 200 `PersonDocument` (to-one) or `PersonCollectionDocument` (to-many) |
    /// | `GET /{type}/{id}/relationships/{name}` | fetch linkage | | 200 `ArticleAuthorRelationshipDocument` |
    /// | `PATCH /{type}/{id}/relationships/{name}` | replace linkage | the linkage (`data`, `meta`, `jsonapi`) | 200 `ArticleAuthorRelationshipDocument`, 204 |
    /// | `POST`, `DELETE /{type}/{id}/relationships/{name}` (to-many) | add, remove members | the same | 200, 204 |
    ///
    /// Bodies are `application/vnd.api+json`. Every operation answers `4XX` and `5XX` with the
    /// error document. The list takes the query parameters of the type's rules
    /// (`QueryRules.openAPIParameters(options:filter:)`); fetch, create and update take their
    /// `include` and `fields` parameters, and a related resource those of its own type's rules.
    /// Sparse fieldsets allowed for any type (`.any`) are written per type of the models, each
    /// with the type's fields, rather than as one free `fields` object. A related route is
    /// written for a relationship whose resources are of one type with a model here. A create
    /// response links to the fetch, update and delete operations of the created resource
    /// (OpenAPI links, with its `id`). A type's ``JSONAPISchemaOptions/WriteRules`` leave out
    /// the changes it does not accept. A relationship's request body links by `id` only.
    ///
    /// ```swift
    /// let api = JSONAPIComponents(models: [Article.self, Person.self])
    /// var paths = api.paths { type in
    ///     QueryRules(includePaths: ["author"], sortFields: ["title"], pagination: .pages())
    /// }
    /// paths["/operations"] = .b(api.atomicOperationsPathItem())
    /// let document = OpenAPI.Document(
    ///     openAPIVersion: .v3_1_1, info: .init(title: "Blog", version: "1.0"), servers: [], paths: paths,
    ///     components: api.components)
    /// ```
    ///
    /// - Parameters:
    ///   - rules: The query rules of each resource type's endpoints; by default
    ///     `QueryRules()` (sparse fieldsets only).
    ///   - queryOptions: The limits the endpoints parse queries with.
    ///   - filters: The schema of the `filter` object each type's collection accepts (see
    ///     `QueryRules.openAPIParameters(options:filter:)`); nil for any object.
    /// - Returns: Two path items per resource type and two per relationship, in the order the
    ///   models were given.
    public func paths(
        rules: (_ resourceType: String) -> QueryRules = { _ in QueryRules() },
        queryOptions: QueryOptions = QueryOptions(),
        filters: (_ resourceType: String) -> JSONSchema? = { _ in nil }
    ) -> OpenAPI.PathItem.Map {
        var paths: OpenAPI.PathItem.Map = [:]
        var seen: Set<String> = []
        let modelOfType = Dictionary(shapes.map { ($0.resourceType, $0) }, uniquingKeysWith: { first, _ in first })
        // Fetching, creating and updating one resource take `include` and `fields`, not the
        // collection's sort, page and filter.
        func singleParameters(_ type: String) -> [OpenAPI.Parameter] {
            parameters(rules(type), options: queryOptions, filter: nil).filter {
                $0.name == "include" || $0.name.hasPrefix("fields")
            }
        }
        for shape in shapes where seen.insert(shape.resourceType).inserted {
            guard let names = names(forTypeNamed: shape.typeName) else { continue }
            let type = shape.resourceType
            let identifier = JSONAPIComponents.componentName(shape.typeName)
            let parameters = parameters(rules(type), options: queryOptions, filter: filters(type))
            let single = singleParameters(type)
            let writes = (options.writeRules[type] ?? JSONAPISchemaOptions.WriteRules()).operations

            let created: OpenAPI.Link.Map = [
                "get" + identifier: .b(link(to: "get" + identifier)),
                "update" + identifier: .b(link(to: "update" + identifier)),
                "delete" + identifier: .b(link(to: "delete" + identifier)),
            ]
            let collection = OpenAPI.PathItem(
                get: operation(
                    id: "list" + identifier, type: type, summary: "List `\(type)`.", parameters: parameters,
                    responses: [200: response("The `\(type)` resources.", names.collectionDocument)]),
                post: !writes.contains(.create)
                    ? nil
                    : operation(
                        id: "create" + identifier, type: type, summary: "Create a `\(type)` resource.",
                        parameters: single, body: names.createDocument,
                        responses: [
                            201: response("The created resource.", names.document, links: created),
                            204: .response(description: "Created with the client's id, as sent."),
                        ]))
            let idParameter = OpenAPI.Parameter(
                name: "id", context: .path(schema: .string(minLength: 1)), description: "The resource id.")
            let item = OpenAPI.PathItem(
                parameters: [.b(idParameter)],
                get: operation(
                    id: "get" + identifier, type: type, summary: "Fetch a `\(type)` resource.",
                    parameters: single, responses: [200: response("The resource.", names.document)]),
                delete: !writes.contains(.delete)
                    ? nil
                    : operation(
                        id: "delete" + identifier, type: type, summary: "Delete a `\(type)` resource.",
                        responses: [204: .response(description: "Deleted.")]),
                patch: !writes.contains(.update)
                    ? nil
                    : operation(
                        id: "update" + identifier, type: type, summary: "Update a `\(type)` resource.",
                        parameters: single, body: names.updateDocument,
                        responses: [
                            200: response("The updated resource.", names.document),
                            204: .response(description: "Updated, as sent."),
                        ]))
            paths[OpenAPI.Path([type])] = .b(collection)
            paths[OpenAPI.Path([type, "{id}"])] = .b(item)

            let builder = ResourceSchemaBuilder(shape: shape, options: options, shared: .referencing)
            for relationship in shape.relationships {
                guard let document = names.relationshipDocuments[relationship.name] else { continue }
                let member = builder.name(relationship.name)
                let suffix = identifier + JSONAPIComponents.componentName(relationship.name, capitalized: true)
                let toMany = relationship.cardinality == .toMany
                if relationship.targetResourceTypes.count == 1, let targetType = relationship.targetResourceTypes.first,
                    let target = modelOfType[targetType], let targetNames = self.names(forTypeNamed: target.typeName)
                {
                    let related = OpenAPI.PathItem(
                        parameters: [.b(idParameter)],
                        get: operation(
                            id: "get" + suffix, type: type, summary: "Fetch the resources `\(member)` refers to.",
                            parameters: singleParameters(targetType),
                            responses: [
                                200: response(
                                    "The related `\(targetType)` " + (toMany ? "resources." : "resource, or null."),
                                    toMany ? targetNames.collectionDocument : targetNames.document)
                            ]))
                    paths[OpenAPI.Path([type, "{id}", member])] = .b(related)
                }
                // A request carries the linkage alone (and `meta`, `jsonapi`): no `included`, no
                // links, and a 1.1 `lid` may stand for an `id`.
                // No `lid`: the body declares no resource one could name.
                let body = SchemaBuilder.referencing.document(
                    data: builder.linkage(relationship, request: true, localIDs: false), included: [], request: true)
                let changes = writes.contains(.changeRelationships)
                let changed = response("The relationship's linkage after the change.", document)
                let unchanged: Either<OpenAPI.Reference<OpenAPI.Response>, OpenAPI.Response> = .response(
                    description: "Changed, as sent.")
                let item = OpenAPI.PathItem(
                    parameters: [.b(idParameter)],
                    get: operation(
                        id: "get" + suffix + "Relationship", type: type,
                        summary: "Fetch the linkage of `\(member)`.",
                        responses: [200: response("The relationship's linkage.", document)]),
                    post: toMany && changes
                        ? operation(
                            id: "add" + suffix + "Relationship", type: type,
                            summary: "Add members to `\(member)`.", bodySchema: body,
                            responses: [200: changed, 204: unchanged]) : nil,
                    delete: toMany && changes
                        ? operation(
                            id: "remove" + suffix + "Relationship", type: type,
                            summary: "Remove members from `\(member)`.", bodySchema: body,
                            responses: [200: changed, 204: unchanged]) : nil,
                    patch: !changes
                        ? nil
                        : operation(
                            id: "update" + suffix + "Relationship", type: type,
                            summary: "Replace the linkage of `\(member)`.", bodySchema: body,
                            responses: [200: changed, 204: unchanged]))
                paths[OpenAPI.Path([type, "{id}", "relationships", member])] = .b(item)
            }
        }
        return paths
    }

    /// The parameters of `rules`, with sparse fieldsets for any type written per type of the
    /// models.
    private func parameters(_ rules: QueryRules, options: QueryOptions, filter: JSONSchema?) -> [OpenAPI.Parameter] {
        var rules = rules
        if case .any = rules.fieldsets {
            var fields: [String: Set<String>] = [:]
            for shape in shapes where fields[shape.resourceType] == nil {
                let builder = ResourceSchemaBuilder(shape: shape, options: self.options, shared: .referencing)
                fields[shape.resourceType] = Set(
                    (shape.attributes.map(\.name) + shape.relationships.map(\.name)).map(builder.name))
            }
            rules.fieldsets = .only(fields)
        }
        return rules.openAPIParameters(options: options, filter: filter)
    }

    /// A link from a create response to the operation `operationID` of the created resource.
    private func link(to operationID: String) -> OpenAPI.Link {
        let expression = "$response.body#/data/id"
        // The expression always parses; written as text it reads the same.
        let id = OpenAPI.RuntimeExpression(rawValue: expression).map { Either.a($0) } ?? .b(AnyCodable(expression))
        return OpenAPI.Link(operationId: operationID, parameters: ["id": id])
    }

    /// An operation of `type`, with the error responses every operation has.
    private func operation(
        id: String, type: String, summary: String, parameters: [OpenAPI.Parameter] = [], body: String? = nil,
        responses: OpenAPI.Response.Map
    ) -> OpenAPI.Operation {
        operation(
            id: id, type: type, summary: summary, parameters: parameters, bodySchema: body.map { reference(to: $0) },
            responses: responses)
    }

    /// An operation of `type` whose request body, if any, is `bodySchema`.
    private func operation(
        id: String, type: String, summary: String, parameters: [OpenAPI.Parameter] = [], bodySchema: JSONSchema?,
        responses: OpenAPI.Response.Map
    ) -> OpenAPI.Operation {
        var responses = responses
        responses[.range(.clientError)] = response("An error document.", Self.errorDocumentName)
        responses[.range(.serverError)] = response("An error document.", Self.errorDocumentName)
        return OpenAPI.Operation(
            tags: [type], summary: summary, operationId: id, parameters: parameters.map { .b($0) },
            requestBody: bodySchema.map {
                OpenAPI.Request(content: [.jsonapi: .b(OpenAPI.Content(schema: $0))], required: true)
            },
            responses: responses)
    }

    /// A response whose body is the component `schema`, as `application/vnd.api+json`.
    private func response(
        _ description: String, _ schema: String, links: OpenAPI.Link.Map = [:]
    ) -> Either<OpenAPI.Reference<OpenAPI.Response>, OpenAPI.Response> {
        .response(
            OpenAPI.Response(
                description: description, content: [.jsonapi: .b(OpenAPI.Content(schema: reference(to: schema)))],
                links: links))
    }
}
