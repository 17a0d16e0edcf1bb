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
    /// | `GET /{type}/{id}/relationships/{name}` | fetch linkage | | 200 `ArticleAuthorRelationshipDocument` |
    /// | `PATCH /{type}/{id}/relationships/{name}` | replace linkage | `ArticleAuthorRelationshipDocument` | 200, 204 |
    /// | `POST`, `DELETE /{type}/{id}/relationships/{name}` (to-many) | add, remove members | the same | 200, 204 |
    ///
    /// Bodies are `application/vnd.api+json`. Every operation answers `4XX` and `5XX` with the
    /// error document. The list takes the query parameters of the type's rules
    /// (`QueryRules.openAPIParameters`); fetch, create and update take their `include`
    /// and `fields` parameters.
    ///
    /// ```swift
    /// let api = JSONAPIComponents(models: [Article.self, Person.self])
    /// let paths = api.paths { type in
    ///     QueryRules(includePaths: ["author"], sortFields: ["title"], pagination: .pages())
    /// }
    /// let document = OpenAPI.Document(
    ///     openAPIVersion: .v3_1_1, info: .init(title: "Blog", version: "1.0"), servers: [], paths: paths,
    ///     components: api.components)
    /// ```
    ///
    /// - Parameter rules: The query rules of each resource type's endpoints; by default
    ///   `QueryRules()` (sparse fieldsets only).
    /// - Returns: Two path items per resource type and one per relationship, in the order the
    ///   models were given.
    public func paths(rules: (_ resourceType: String) -> QueryRules = { _ in QueryRules() }) -> OpenAPI.PathItem.Map {
        var paths: OpenAPI.PathItem.Map = [:]
        var seen: Set<String> = []
        for shape in shapes where seen.insert(shape.resourceType).inserted {
            guard let names = names(forTypeNamed: shape.typeName) else { continue }
            let type = shape.resourceType
            let identifier = JSONAPIComponents.componentName(shape.typeName)
            let parameters = rules(type).openAPIParameters
            // Fetching, creating and updating one resource take `include` and `fields`, not the
            // collection's sort, page and filter.
            let singleParameters = parameters.filter { $0.name == "include" || $0.name.hasPrefix("fields") }

            let collection = OpenAPI.PathItem(
                get: operation(
                    id: "list" + identifier, type: type, summary: "List `\(type)`.", parameters: parameters,
                    responses: [200: response("The `\(type)` resources.", names.collectionDocument)]),
                post: operation(
                    id: "create" + identifier, type: type, summary: "Create a `\(type)` resource.",
                    parameters: singleParameters, body: names.createDocument,
                    responses: [
                        201: response("The created resource.", names.document),
                        204: .response(description: "Created with the client's id, as sent."),
                    ]))
            let idParameter = OpenAPI.Parameter(
                name: "id", context: .path(schema: .string), description: "The resource id.")
            let single = OpenAPI.PathItem(
                parameters: [.b(idParameter)],
                get: operation(
                    id: "get" + identifier, type: type, summary: "Fetch a `\(type)` resource.",
                    parameters: singleParameters, responses: [200: response("The resource.", names.document)]),
                delete: operation(
                    id: "delete" + identifier, type: type, summary: "Delete a `\(type)` resource.",
                    responses: [204: .response(description: "Deleted.")]),
                patch: operation(
                    id: "update" + identifier, type: type, summary: "Update a `\(type)` resource.",
                    parameters: singleParameters, body: names.updateDocument,
                    responses: [
                        200: response("The updated resource.", names.document),
                        204: .response(description: "Updated, as sent."),
                    ]))
            paths[OpenAPI.Path([type])] = .b(collection)
            paths[OpenAPI.Path([type, "{id}"])] = .b(single)

            let builder = ResourceSchemaBuilder(shape: shape, options: options, shared: .referencing)
            for relationship in shape.relationships {
                guard let document = names.relationshipDocuments[relationship.name] else { continue }
                let member = builder.name(relationship.name)
                let suffix = identifier + JSONAPIComponents.componentName(relationship.name, capitalized: true)
                let changed = response("The relationship's linkage after the change.", document)
                let unchanged: Either<OpenAPI.Reference<OpenAPI.Response>, OpenAPI.Response> = .response(
                    description: "Changed, as sent.")
                let toMany = relationship.cardinality == .toMany
                let item = OpenAPI.PathItem(
                    parameters: [.b(idParameter)],
                    get: operation(
                        id: "get" + suffix + "Relationship", type: type,
                        summary: "Fetch the linkage of `\(member)`.",
                        responses: [200: response("The relationship's linkage.", document)]),
                    post: toMany
                        ? operation(
                            id: "add" + suffix + "Relationship", type: type,
                            summary: "Add members to `\(member)`.", body: document,
                            responses: [200: changed, 204: unchanged]) : nil,
                    delete: toMany
                        ? operation(
                            id: "remove" + suffix + "Relationship", type: type,
                            summary: "Remove members from `\(member)`.", body: document,
                            responses: [200: changed, 204: unchanged]) : nil,
                    patch: operation(
                        id: "update" + suffix + "Relationship", type: type,
                        summary: "Replace the linkage of `\(member)`.", body: document,
                        responses: [200: changed, 204: unchanged]))
                paths[OpenAPI.Path([type, "{id}", "relationships", member])] = .b(item)
            }
        }
        return paths
    }

    /// An operation of `type`, with the error responses every operation has.
    private func operation(
        id: String, type: String, summary: String, parameters: [OpenAPI.Parameter] = [], body: String? = nil,
        responses: OpenAPI.Response.Map
    ) -> OpenAPI.Operation {
        var responses = responses
        responses[.range(.clientError)] = response("An error document.", Self.errorDocumentName)
        responses[.range(.serverError)] = response("An error document.", Self.errorDocumentName)
        return OpenAPI.Operation(
            tags: [type], summary: summary, operationId: id, parameters: parameters.map { .b($0) },
            requestBody: body.map {
                OpenAPI.Request(content: [.jsonapi: .b(OpenAPI.Content(schema: reference(to: $0)))], required: true)
            },
            responses: responses)
    }

    /// A response whose body is the component `schema`, as `application/vnd.api+json`.
    private func response(
        _ description: String, _ schema: String
    ) -> Either<OpenAPI.Reference<OpenAPI.Response>, OpenAPI.Response> {
        .response(description: description, content: [.jsonapi: .b(OpenAPI.Content(schema: reference(to: schema)))])
    }
}
