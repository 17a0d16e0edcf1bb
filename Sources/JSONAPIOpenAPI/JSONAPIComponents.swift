import JSONAPI
import OpenAPIKit

/// The OpenAPI components of a set of models: for each model its resource object, its single and
/// collection documents (with `included` of the related models), its create and update bodies and
/// a document per relationship, plus the shared JSON:API schemas (`meta`, links, the `jsonapi`
/// object, error objects and the error document), every schema keyed by name in
/// `components/schemas` and referring to the others with `$ref`.
///
/// ```swift
/// let api = JSONAPIComponents(models: [Article.self, Person.self, Comment.self])
/// let document = OpenAPI.Document(
///     openAPIVersion: .v3_1_1, info: .init(title: "Blog", version: "1.0"), servers: [], paths: api.paths(),
///     components: api.components)
/// api.names(for: Article.self)?.collectionDocument   // "ArticleCollectionDocument"
/// ```
///
/// | Component | Schema |
/// |---|---|
/// | `Article` | the resource object of a response |
/// | `ArticleDocument` | `data` one `Article` or null, `included` |
/// | `ArticleCollectionDocument` | `data` an array of `Article`, `included` |
/// | `ArticleCreateDocument` | a create body: `id` optional, `lid` allowed, non-optional attributes required |
/// | `ArticleUpdateDocument` | an update body: `id` required, every field optional |
/// | `ArticleAuthorRelationshipDocument` | the linkage of `author`, as a relationship endpoint serves and takes it |
/// | `JSONAPIErrorDocument`, `JSONAPIErrorObject`, `JSONAPIMeta`, `JSONAPIMetaValue`, `JSONAPILink`, `JSONAPITopLevelLinks`, `JSONAPIResourceLinks`, `JSONAPIRelationshipLinks`, `JSONAPIObject` | the spec's own members |
///
/// `included` holds the resource objects of every type reachable from the model through
/// relationships (an include path may go through several), among the models given; a related
/// type with no model in the set is described as a resource object of that type with any
/// attributes and relationships. Two models of one resource type: the first describes it.
public struct JSONAPIComponents: Sendable {
    /// The component names of one model's schemas.
    public struct Names: Sendable, Hashable {
        /// The resource object (`Article`).
        public var resource: String
        /// The single-resource document (`ArticleDocument`).
        public var document: String
        /// The collection document (`ArticleCollectionDocument`).
        public var collectionDocument: String
        /// The create request body (`ArticleCreateDocument`).
        public var createDocument: String
        /// The update request body (`ArticleUpdateDocument`).
        public var updateDocument: String
        /// The relationship documents, by relationship member name (`["author":
        /// "ArticleAuthorRelationshipDocument"]`).
        public var relationshipDocuments: [String: String]
    }

    /// The component name of the error document.
    public static let errorDocumentName = SchemaBuilder.Shared.errorDocument.rawValue

    /// The options the schemas were built with.
    public let options: JSONAPISchemaOptions
    /// The shapes of the models, in the order given.
    public let shapes: [ResourceShape]
    /// The components: `schemas` holds every schema named in the table above.
    public private(set) var components: OpenAPI.Components
    private var namesByType: [String: Names] = [:]

    /// The components of `models`, their shapes worked out with `ResourceShape(of:)`.
    ///
    /// - Parameters:
    ///   - models: The model types; list every type that can be related or included.
    ///   - options: Member names, date and data encodings, and what responses promise.
    public init(models: [any (JSONAPIResource & Decodable).Type], options: JSONAPISchemaOptions = .init()) {
        self.init(shapes: models.map { ResourceShape(of: $0) }, options: options)
    }

    /// The components of models described by their shapes.
    ///
    /// - Parameters:
    ///   - shapes: The models' shapes.
    ///   - options: Member names, date and data encodings, and what responses promise.
    public init(shapes: [ResourceShape], options: JSONAPISchemaOptions = .init()) {
        self.options = options
        self.shapes = shapes
        var schemas: OrderedDictionary<OpenAPI.ComponentKey, JSONSchema> = [:]
        let shared = SchemaBuilder.referencing
        for item in SchemaBuilder.Shared.allCases {
            schemas[Self.key(item.rawValue)] = shared.definition(of: item)
        }

        // One model per resource type, the first given.
        var modelOfType: [String: ResourceShape] = [:]
        for shape in shapes where modelOfType[shape.resourceType] == nil { modelOfType[shape.resourceType] = shape }
        var usedNames = Set(schemas.keys.map(\.rawValue))
        func unique(_ name: String) -> String {
            var candidate = name
            var number = 2
            while usedNames.contains(candidate) {
                candidate = name + String(number)
                number += 1
            }
            usedNames.insert(candidate)
            return candidate
        }
        var names: [String: Names] = [:]
        for shape in shapes {
            let base = unique(Self.componentName(shape.typeName))
            var relationshipNames: [String: String] = [:]
            for relationship in shape.relationships {
                relationshipNames[relationship.name] = unique(
                    base + Self.componentName(relationship.name, capitalized: true) + "RelationshipDocument")
            }
            names[shape.typeName] = Names(
                resource: base, document: unique(base + "Document"),
                collectionDocument: unique(base + "CollectionDocument"),
                createDocument: unique(base + "CreateDocument"),
                updateDocument: unique(base + "UpdateDocument"), relationshipDocuments: relationshipNames)
        }

        func reference(_ name: String) -> JSONSchema { .reference(.component(named: name)) }
        // The resource objects `included` may hold for resources of `types`: every type reachable
        // from them through relationships.
        func included(from types: [String]) -> [JSONSchema] {
            var reached: [String] = []
            var pending = types
            while let type = pending.popLast() {
                guard !reached.contains(type) else { continue }
                reached.append(type)
                pending += modelOfType[type]?.relationships.flatMap(\.targetResourceTypes) ?? []
            }
            var schemas: [JSONSchema] = []
            var unknown: [String] = []
            for type in reached.sorted() {
                if let model = modelOfType[type], let name = names[model.typeName]?.resource {
                    schemas.append(reference(name))
                } else {
                    unknown.append(type)
                }
            }
            if !unknown.isEmpty { schemas.append(shared.anyResourceObject(types: unknown)) }
            return schemas
        }

        for shape in shapes {
            guard let name = names[shape.typeName] else { continue }
            let builder = ResourceSchemaBuilder(shape: shape, options: options, shared: shared)
            let related = included(from: shape.relationships.flatMap(\.targetResourceTypes))
            schemas[Self.key(name.resource)] = builder.resourceObject(.response)
            schemas[Self.key(name.document)] = shared.document(
                data: .one(of: [reference(name.resource), .null()], core: .init()), included: related, request: false)
            schemas[Self.key(name.collectionDocument)] = shared.document(
                data: .array(items: reference(name.resource)), included: related, request: false)
            schemas[Self.key(name.createDocument)] = shared.document(
                data: builder.resourceObject(.create), included: [], request: true)
            schemas[Self.key(name.updateDocument)] = shared.document(
                data: builder.resourceObject(.update), included: [], request: true)
            for relationship in shape.relationships {
                guard let documentName = name.relationshipDocuments[relationship.name] else { continue }
                schemas[Self.key(documentName)] = shared.document(
                    data: builder.linkage(relationship, request: false),
                    included: included(from: relationship.targetResourceTypes), request: false)
            }
        }
        components = OpenAPI.Components(schemas: schemas)
        namesByType = names
    }

    /// The component names of the model `model`, or nil when it is not one of the models.
    ///
    /// ```swift
    /// api.names(for: Article.self)?.document   // "ArticleDocument"
    /// ```
    public func names<Model: JSONAPIResource & Decodable>(for model: Model.Type) -> Names? {
        names(forTypeNamed: ResourceShape(of: model).typeName)
    }

    /// The component names of the model whose shape has the Swift type name `typeName`
    /// (`ResourceShape.typeName`), or nil.
    public func names(forTypeNamed typeName: String) -> Names? { namesByType[typeName] }

    /// A `$ref` to the component named `name`.
    ///
    /// ```swift
    /// let body = api.reference(to: api.names(for: Article.self)?.createDocument ?? "")
    /// ```
    public func reference(to name: String) -> JSONSchema { .reference(.component(named: name)) }

    /// `name` made a component key (`^[a-zA-Z0-9._-]+$`): other characters become `_`.
    static func componentName(_ name: String, capitalized: Bool = false) -> String {
        var result = ""
        for character in name {
            let allowed = character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
            result.append(allowed ? character : "_")
        }
        if capitalized, let first = result.first { result = first.uppercased() + result.dropFirst() }
        return result.isEmpty ? "_" : result
    }

    private static func key(_ name: String) -> OpenAPI.ComponentKey {
        OpenAPI.ComponentKey(rawValue: name) ?? "_"
    }
}

extension SchemaBuilder {
    /// A resource object of one of `types` whose model is not known: any attributes and
    /// relationships.
    func anyResourceObject(types: [String]) -> JSONSchema {
        .object(
            description: "A resource object of a type with no model here.",
            properties: [
                "type": .string(allowedValues: types.map { AnyCodable($0) }),
                "id": .string,
                "lid": .string(required: false),
                "attributes": .object(required: false),
                "relationships": .object(required: false),
                "links": schema(.resourceLinks, required: false),
                "meta": schema(.meta, required: false),
            ],
            additionalProperties: .a(false))
    }
}
