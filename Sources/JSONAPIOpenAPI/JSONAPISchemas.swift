import OpenAPIKit

/// JSON Schemas (OpenAPI 3.1, JSON Schema 2020-12) of the members JSON:API defines for every
/// document: `meta`, links, the `jsonapi` object, error objects and error documents.
///
/// Each schema here is self-contained (nothing referenced). ``JSONAPIComponents`` puts the same
/// schemas into `components/schemas` once and refers to them with `$ref` from the model schemas.
///
/// ```swift
/// let errors = JSONAPISchemas.errorDocument
/// // {"type": "object", "required": ["errors"],
/// //  "properties": {"errors": {"type": "array", "items": {error object}}, "meta": ..., ...},
/// //  "additionalProperties": false}
/// ```
///
/// The objects JSON:API defines are closed (`additionalProperties: false`): the specification
/// allows no members in them but its own. 1.1's @-members and the members of extensions
/// (`ns:name`) are not described, so a document using them does not validate.
public enum JSONAPISchemas {
    /// A meta object: any JSON object whose member names follow JSON:API's member-name rules
    /// (JSON:API 1.1, "Meta Information", "Member Names"). Its members are matched by
    /// ``memberNamePattern`` (`patternProperties`, with no other member allowed: what
    /// `propertyNames` says, in the form OpenAPIKit writes). The objects inside its values obey
    /// the same rules; this self-contained form leaves those values unconstrained, and the
    /// `JSONAPIMetaValue` component of ``JSONAPIComponents`` describes them at every depth.
    public static var meta: JSONSchema { SchemaBuilder.inline.definition(of: .meta) }

    /// The member names JSON:API allows, as an ECMA-262 regular expression: a name of letters,
    /// digits and non-ASCII characters, with `-`, `_` and space between two of them; an
    /// @-member (`@name`); or an extension member (`namespace:name`, the namespace ASCII
    /// letters and digits). The rules `Document(parsing:)` applies to every member name inside
    /// `meta` and attribute values.
    ///
    /// ```swift
    /// JSONAPISchemas.memberNamePattern   // "^(?:@|[A-Za-z0-9]+:)?[^\u0000-/:-@\[-`{-\u007F](?:..."
    /// ```
    public static let memberNamePattern = "^(?:@|[A-Za-z0-9]+:)?" + plainMemberNamePattern + patternEnd

    /// The end of the text, for a pattern that must match all of it: `$` also matches before a
    /// final newline in Python's and ICU's dialects (and so in the validators and generators
    /// built on them), where a member name may not end with one.
    static let patternEnd = "(?![\\s\\S])"

    /// An ordinary member name (no @, no namespace), unanchored: what a type, a field or a
    /// step of a relationship path is made of.
    static let plainMemberNamePattern =
        globallyAllowed + "(?:(?:" + globallyAllowed + "|[-_ ])*" + globallyAllowed + ")?"

    /// A character allowed anywhere in a member name: not ASCII, or an ASCII letter or digit.
    /// Written as the ASCII characters it excludes, so that every non-ASCII character (astral
    /// ones included) matches in any regular expression dialect.
    private static let globallyAllowed = "[^\\u0000-/:-@\\[-`{-\\u007F]"

    /// A link: a URI-reference string, a link object (`href` required; `rel`, `describedby`,
    /// `title`, `type`, `hreflang`, `meta`), or null (JSON:API 1.1, "Links").
    public static var link: JSONSchema { SchemaBuilder.inline.definition(of: .link) }

    /// The top-level links object: `self`, `related`, `describedby` and the pagination links
    /// `first`, `last`, `prev` and `next`, each a ``link``.
    public static var topLevelLinks: JSONSchema { SchemaBuilder.inline.definition(of: .topLevelLinks) }

    /// A resource object's links object: `self`, a ``link``.
    public static var resourceLinks: JSONSchema { SchemaBuilder.inline.definition(of: .resourceLinks) }

    /// A relationship object's links object: `self`, `related`, and for a to-many relationship
    /// the pagination links `first`, `last`, `prev` and `next`, each a ``link``.
    public static var relationshipLinks: JSONSchema { SchemaBuilder.inline.definition(of: .relationshipLinks) }

    /// The `jsonapi` object: `version`, `ext` and `profile` (arrays of URIs) and `meta`.
    public static var jsonapiObject: JSONSchema { SchemaBuilder.inline.definition(of: .jsonapiObject) }

    /// An error object: `id`, `links` (`about`, `type`), `status`, `code`, `title`, `detail`,
    /// `source` (`pointer`, a JSON Pointer; `parameter`; `header`) and `meta`, every one optional,
    /// no other member allowed.
    public static var errorObject: JSONSchema { SchemaBuilder.inline.definition(of: .errorObject) }

    /// An error document: a required `errors` array of ``errorObject``s, with optional `meta`,
    /// `links` (``topLevelLinks``) and `jsonapi`; `data` and `included` are not allowed next to
    /// `errors`.
    public static var errorDocument: JSONSchema { SchemaBuilder.inline.definition(of: .errorDocument) }
}

/// Builds the spec-level schemas either inline or as `$ref`s to the shared components, so that
/// both forms come from one definition.
struct SchemaBuilder: Sendable {
    /// Whether the shared schemas are referenced (`#/components/schemas/NAME`) rather than
    /// written out.
    let references: Bool

    static let inline = SchemaBuilder(references: false)
    static let referencing = SchemaBuilder(references: true)

    /// The shared schemas, with their component names.
    enum Shared: String, CaseIterable, Sendable {
        case meta = "JSONAPIMeta"
        case metaValue = "JSONAPIMetaValue"
        case link = "JSONAPILink"
        case topLevelLinks = "JSONAPITopLevelLinks"
        case resourceLinks = "JSONAPIResourceLinks"
        case relationshipLinks = "JSONAPIRelationshipLinks"
        case jsonapiObject = "JSONAPIObject"
        case errorObject = "JSONAPIErrorObject"
        case errorDocument = "JSONAPIErrorDocument"
    }

    /// `shared` referenced or inline, optional as a property (`required: false`) when asked.
    func schema(_ shared: Shared, required: Bool = true) -> JSONSchema {
        let schema = references ? JSONSchema.reference(.component(named: shared.rawValue)) : definition(of: shared)
        return required ? schema : schema.optionalSchemaObject()
    }

    /// The written-out schema of `shared`; the members it uses are built by this builder, so
    /// with references on they are `$ref`s.
    func definition(of shared: Shared) -> JSONSchema {
        switch shared {
        case .meta:
            let value: JSONSchema =
                references
                ? schema(.metaValue)
                : .fragment(description: "Any JSON value (member names inside it follow the rules too).")
            return .object(
                description: "Non-standard meta-information: any JSON object whose member names follow the rules.",
                patternProperties: [JSONAPISchemas.memberNamePattern: value], additionalProperties: .a(false))
        case .metaValue:
            // Recursive through its own component: with references off, `meta` does not use it.
            let value = JSONSchema.reference(.component(named: Shared.metaValue.rawValue))
            return .any(
                of: [
                    .string, .number, .boolean, .null(), .array(items: value),
                    .object(
                        patternProperties: [JSONAPISchemas.memberNamePattern: value], additionalProperties: .a(false)),
                ],
                core: .init(
                    description: "A value inside `meta`: any JSON value whose objects' member names follow the rules."))
        case .link:
            return link(describedBy: references ? schema(.link, required: false) : link(describedBy: nil))
        case .topLevelLinks:
            return links(
                ["self", "related", "describedby", "first", "last", "prev", "next"],
                description: "The top-level links: the document's own, and pagination links.")
        case .resourceLinks:
            return links(["self"], description: "The links of a resource object.")
        case .relationshipLinks:
            return links(
                ["self", "related", "first", "last", "prev", "next"],
                description: "The links of a relationship object, with pagination links for a to-many one.")
        case .jsonapiObject:
            return .object(
                description: "The server's implementation: the JSON:API version, extensions and profiles.",
                properties: [
                    "version": .string(required: false),
                    "ext": .array(required: false, items: .string(format: .uri)),
                    "profile": .array(required: false, items: .string(format: .uri)),
                    "meta": schema(.meta, required: false),
                ],
                additionalProperties: .a(false))
        case .errorObject:
            return .object(
                description: "An error object: a problem encountered while processing a request.",
                properties: [
                    "id": .string(required: false, description: "A unique identifier of this occurrence."),
                    "links": .object(
                        required: false,
                        properties: ["about": schema(.link, required: false), "type": schema(.link, required: false)],
                        additionalProperties: .a(false)),
                    "status": .string(required: false, description: "The HTTP status code, as a string."),
                    "code": .string(required: false, description: "An application-specific error code."),
                    "title": .string(required: false, description: "A short summary of the problem."),
                    "detail": .string(required: false, description: "An explanation of this occurrence."),
                    "source": .object(
                        required: false,
                        properties: [
                            "pointer": .string(
                                required: false, description: "A JSON Pointer to the value in the request document.",
                                pattern: Self.jsonPointerPattern),
                            "parameter": .string(required: false, description: "The query parameter at fault."),
                            "header": .string(required: false, description: "The request header at fault."),
                        ],
                        additionalProperties: .a(false)),
                    "meta": schema(.meta, required: false),
                ],
                additionalProperties: .a(false))
        case .errorDocument:
            return .object(
                description: "An error document: one or more error objects, and no primary data.",
                properties: [
                    "errors": .array(items: schema(.errorObject)),
                    "meta": schema(.meta, required: false),
                    "links": schema(.topLevelLinks, required: false),
                    "jsonapi": schema(.jsonapiObject, required: false),
                ],
                additionalProperties: .a(false))
        }
    }

    /// A link: a URI reference, a link object or null. A link object's `describedby` is itself a
    /// link: `describedBy` is its schema (written out inline one level deep, as a schema cannot
    /// contain itself without a reference), or nil for a link object without it.
    private func link(describedBy: JSONSchema?) -> JSONSchema {
        var properties: OrderedDictionary<String, JSONSchema> = [
            "href": .string(format: .uriReference),
            "rel": .string(required: false),
        ]
        if let describedBy { properties["describedby"] = describedBy.requiring(false) }
        properties["title"] = .string(required: false)
        properties["type"] = .string(required: false)
        properties["hreflang"] = .one(of: [.string, .array(items: .string)], core: .init(required: false))
        properties["meta"] = schema(.meta, required: false)
        return .one(
            of: [
                .string(format: .uriReference, description: "The link's URL."),
                .object(description: "A link object.", properties: properties, additionalProperties: .a(false)),
                .null(),
            ],
            core: .init(description: "A link: a URL, a link object, or null when the link does not exist."))
    }

    /// A links object with only the members `names`, each a link.
    private func links(_ names: [String], description: String) -> JSONSchema {
        var properties: OrderedDictionary<String, JSONSchema> = [:]
        for name in names { properties[name] = schema(.link, required: false) }
        return .object(description: description, properties: properties, additionalProperties: .a(false))
    }

    /// RFC 6901: empty, or `/`-separated reference tokens where `~` is only `~0` or `~1`.
    static let jsonPointerPattern = "^(?:/(?:[^~/]|~0|~1)*)*$"
}
