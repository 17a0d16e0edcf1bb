import JSONAPI
import OpenAPIKit

extension JSONAPISchemas {
    /// A top-level document around primary data: a required `data`, `included` when there can
    /// be related resources, and the optional `meta`, `links` and `jsonapi`. No other member is
    /// allowed, so `errors` beside `data` is rejected.
    ///
    /// ```swift
    /// let article = JSONAPISchemas.resourceObject(for: Article.self)
    /// let person = JSONAPISchemas.resourceObject(for: Person.self)
    /// let single = JSONAPISchemas.document(data: .one(of: article, .null()), included: [person])
    /// let collection = JSONAPISchemas.document(data: .array(items: article), included: [person])
    /// ```
    ///
    /// - Parameters:
    ///   - data: The schema of `data`: a resource object (or null), an array of them, or linkage.
    ///   - included: The resource objects `included` may hold, each item one of them (`oneOf`).
    ///     Empty: `included` may only be `[]`, as a response to a request with `include` must
    ///     have it even when nothing is included.
    /// - Returns: The document schema.
    public static func document(data: JSONSchema, included: [JSONSchema]) -> JSONSchema {
        SchemaBuilder.inline.document(data: data, included: included, request: false)
    }

    /// A request document: a required `data`, and the optional `meta` and `jsonapi`.
    ///
    /// ```swift
    /// let body = JSONAPISchemas.requestDocument(data: JSONAPISchemas.resourceObject(for: Article.self))
    /// ```
    ///
    /// - Parameter data: The schema of `data`.
    /// - Returns: The document schema.
    public static func requestDocument(data: JSONSchema) -> JSONSchema {
        SchemaBuilder.inline.document(data: data, included: [], request: true)
    }
}

extension SchemaBuilder {
    /// A document around `data`: a response one (`included`, `links`) or a request body.
    func document(data: JSONSchema, included: [JSONSchema], request: Bool) -> JSONSchema {
        var properties: OrderedDictionary<String, JSONSchema> = ["data": data.requiring(true)]
        if !request {
            let item: JSONSchema? =
                switch included.count {
                case 0: nil
                case 1: included[0]
                default: .one(of: included, core: .init())
                }
            properties["included"] = JSONSchema.array(
                required: false, description: "Related resources (a compound document).",
                maxItems: item == nil ? 0 : nil, items: item ?? .fragment)
            properties["links"] = schema(.topLevelLinks, required: false)
        }
        properties["meta"] = schema(.meta, required: false)
        properties["jsonapi"] = schema(.jsonapiObject, required: false)
        return .object(properties: properties, additionalProperties: .a(false))
    }
}
