#if OpenAPI
    import Foundation
    import JSONAPI
    import JSONAPIOpenAPI
    import OpenAPIKit

    extension ResourceSchema {
        /// The Swift-style name of the type's components (`Article` for `articles`).
        var modelName: String {
            switch type {
            case "articles": "Article"
            case "people": "Person"
            case "comments": "Comment"
            case "tags": "Tag"
            default: type
            }
        }

        /// The type's shape, as a model of it would have: string attributes (optional unless
        /// required), to-one relationships that may be null and to-many ones.
        var shape: ResourceShape {
            ResourceShape(
                typeName: modelName, resourceType: type, id: ValueShape(.string(format: nil), typeName: "String"),
                attributes: attributes.map { name in
                    MemberShape(
                        name: name,
                        value: ValueShape(
                            .string(format: nil), isOptional: !required.contains(name), typeName: "String"))
                },
                relationships: relationships.keys.sorted().compactMap { name in
                    guard let relation = relationships[name], let target = ResourceSchema.all[relation.type] else {
                        return nil
                    }
                    return RelationshipShape(
                        name: name, cardinality: relation.isToMany ? .toMany : .toOne, representation: .identifier,
                        targetTypeName: target.modelName, targetResourceTypes: [target.type],
                        isOptional: !relation.isToMany)
                })
        }

        /// The `filter` object of the type's collection: `filter[ATTRIBUTE]`, an exact match on a
        /// string of at most ``maximumFilterLength`` characters.
        var filterSchema: JSONSchema {
            var properties: OrderedDictionary<String, JSONSchema> = [:]
            for name in attributes.sorted() {
                properties[name] = .string(
                    required: false, description: "Resources whose `\(name)` is this string.",
                    maxLength: Self.maximumFilterLength)
            }
            return .object(properties: properties, additionalProperties: .a(false))
        }
    }

    extension ExampleService {
        /// The service's OpenAPI 3.1 document, derived from ``ResourceSchema`` and the rules its
        /// endpoints parse queries with: every type's collection, resource, related and
        /// relationship routes, and `POST /operations`.
        func openAPIDocument() -> OpenAPI.Document {
            let schemas = ResourceSchema.all.keys.sorted().compactMap { ResourceSchema.all[$0] }
            let api = JSONAPIComponents(shapes: schemas.map(\.shape))
            let queryOptions = QueryOptions()
            let maximumPageSize = maximumPageSize
            var paths = api.paths(
                rules: { type in
                    ResourceSchema.all[type]?.rules(collection: true, maximumPageSize: maximumPageSize) ?? QueryRules()
                },
                queryOptions: queryOptions,
                filters: { type in ResourceSchema.all[type]?.filterSchema })
            paths["/operations"] = .b(api.atomicOperationsPathItem())
            return OpenAPI.Document(
                openAPIVersion: .v3_1_1,
                info: .init(
                    title: "jsonapi-example-server",
                    description:
                        "An in-memory JSON:API 1.1 service of articles, people, comments and tags, with Atomic Operations.",
                    version: "1.0"),
                servers: [], paths: paths, components: api.components)
        }

        /// ``openAPIDocument()`` as JSON, keys sorted, for `GET /openapi.json`.
        func openAPIJSON() throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return Array(try encoder.encode(openAPIDocument()))
        }
    }
#endif
