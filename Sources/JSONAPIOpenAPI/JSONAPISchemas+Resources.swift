import JSONAPI
import OpenAPIKit

extension JSONAPISchemas {
    /// The resource object of `model` as a response carries it: `type` (the model's
    /// `resourceType`), `id`, the attributes typed from the model's properties, the relationships
    /// with linkage naming the related types, `links` and `meta`. Self-contained: nothing is
    /// referenced.
    ///
    /// ```swift
    /// struct Article: Decodable, JSONAPIResource {
    ///     static let resourceType = "articles"
    ///     var id: String
    ///     var title: String
    ///     var author: Identifier<Person>?
    /// }
    /// let schema = JSONAPISchemas.resourceObject(for: Article.self)
    /// // {"type": "object", "required": ["type", "id"], "additionalProperties": false,
    /// //  "properties": {"type": {"enum": ["articles"]}, "id": {"type": "string"},
    /// //    "attributes": {"properties": {"title": {"type": "string"}}, ...},
    /// //    "relationships": {"properties": {"author": {"properties": {"data":
    /// //      {"oneOf": [{"properties": {"type": {"enum": ["people"]}, ...}}, {"type": "null"}]}}}}}, ...}}
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model type; its shape is worked out with `ResourceShape(of:)`.
    ///   - options: Member names, date and data encodings, and what responses promise.
    /// - Returns: The schema.
    public static func resourceObject<Model: JSONAPIResource & Decodable>(
        for model: Model.Type, options: JSONAPISchemaOptions = .init()
    ) -> JSONSchema {
        resourceObject(for: ResourceShape(of: model), options: options)
    }

    /// The resource object of a model described by `shape`, as a response carries it.
    ///
    /// - Parameters:
    ///   - shape: The model's shape.
    ///   - options: Member names, date and data encodings, and what responses promise.
    /// - Returns: The schema.
    public static func resourceObject(for shape: ResourceShape, options: JSONAPISchemaOptions = .init()) -> JSONSchema {
        ResourceSchemaBuilder(shape: shape, options: options, shared: .inline).resourceObject(.response)
    }

    /// The body of a request creating a `model`: `data` a resource object whose `id` is
    /// optional (the server assigns one unless the client does), which may carry a 1.1 `lid`,
    /// and whose non-optional attributes and non-optional to-one relationships are required;
    /// every relationship given has `data`.
    ///
    /// ```swift
    /// let body = JSONAPISchemas.createDocument(for: Article.self)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model type.
    ///   - options: Member names, date and data encodings, and whether `lid` is allowed.
    /// - Returns: The schema.
    public static func createDocument<Model: JSONAPIResource & Decodable>(
        for model: Model.Type, options: JSONAPISchemaOptions = .init()
    ) -> JSONSchema {
        let builder = ResourceSchemaBuilder(shape: ResourceShape(of: model), options: options, shared: .inline)
        return SchemaBuilder.inline.document(data: builder.resourceObject(.create), included: [], request: true)
    }

    /// The body of a request updating a `model`: `data` a resource object with its `type` and
    /// `id`, and only the fields that change (every attribute and relationship optional).
    ///
    /// ```swift
    /// let body = JSONAPISchemas.updateDocument(for: Article.self)
    /// ```
    ///
    /// - Parameters:
    ///   - model: The model type.
    ///   - options: Member names, date and data encodings, and whether `lid` is allowed.
    /// - Returns: The schema.
    public static func updateDocument<Model: JSONAPIResource & Decodable>(
        for model: Model.Type, options: JSONAPISchemaOptions = .init()
    ) -> JSONSchema {
        let builder = ResourceSchemaBuilder(shape: ResourceShape(of: model), options: options, shared: .inline)
        return SchemaBuilder.inline.document(data: builder.resourceObject(.update), included: [], request: true)
    }
}
