/// The shape of a model type: what its `init(from:)` reads from a resource object, worked out
/// from the type alone, without a document or an instance.
///
/// The initializer runs the model's `init(from: any Decoder)` against a probing decoder that
/// records every key the model asks for and the type it asks for it as, and hands back a sample
/// value of that type. A property is a relationship or an attribute by its type, as the encoder
/// and decoder decide it: a ``JSONAPIResource``, a ``ResourceUnion``, an ``Identifier``, a
/// `ResourceIdentifier`, a ``Lazy`` or a ``Related`` (or an optional or array of one) is a
/// relationship; anything else is an attribute.
///
/// ```swift
/// struct Article: Decodable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var title: String
///     var publishedAt: Date?
///     var author: Person
///     var tags: [Identifier<Tag>]
/// }
///
/// let shape = ResourceShape(of: Article.self)
/// shape.resourceType                       // "articles"
/// shape.attributes.map(\.name)             // ["title", "publishedAt"]
/// shape.attribute("publishedAt")?.value    // a date-time string, optional
/// shape.relationship("tags")?.cardinality  // .toMany
/// shape.findings                           // [] (nothing the type system cannot catch)
/// ```
///
/// Names are the `CodingKey` string values the model asks for: a decoder's key strategy
/// (``DecodingOptions/keyDecodingStrategy``) is applied to them when a document is read, not here.
///
/// Sample values satisfy the usual custom initializers: strings, numbers, dates, URLs, UUIDs,
/// `Data`, `Decimal`, the first case of a `CaseIterable` enum, one element for an array, one
/// member for a `[String: V]` dictionary, and a value (not `nil`) for an optional, so the wrapped
/// type is probed too. When a type's initializer rejects every sample (a validating initializer
/// that wants, say, an e-mail address), its value is ``ValueShape/Kind/opaque`` and a
/// ``ShapeFinding`` says so; if that stops the model's initializer, the members it would have read
/// afterwards are missing, and another finding says where it stopped.
///
/// A relationship records its target's Swift type name and resource types, and does not descend
/// into the target, so cyclic models (an article's author whose articles…) are described without
/// a loop. Attribute values that are objects are described down to ``maximumNesting`` levels.
///
/// ``findings`` lists what a model declares that the type system accepts but JSON:API or the
/// decoder does not (``ShapeFinding/Kind``).
public struct ResourceShape: Sendable, Hashable {
    /// How deeply attribute values nest before the description stops (32): deeper values are
    /// ``ValueShape/Kind/opaque``, with a ``ShapeFinding/Kind/nestingTooDeep`` finding. A bound, not
    /// a limit of JSON:API: it keeps a type that contains itself (`struct Node { var children:
    /// [Node] }`) from being probed forever.
    public static let maximumNesting = 32

    /// The model's Swift type name, such as `"Article"`.
    public var typeName: String
    /// The model's `resourceType`, such as `"articles"`.
    public var resourceType: String
    /// The shape of the `id` the model reads (a string, an integer, a UUID…); nil when the model
    /// does not read `id`.
    public var id: ValueShape?
    /// Whether the model reads the 1.1 local id `lid`.
    public var readsLocalID: Bool
    /// The attributes, in the order the model first asks for them.
    public var attributes: [MemberShape]
    /// The relationships, in the order the model first asks for them.
    public var relationships: [RelationshipShape]
    /// The shape of the resource's own `meta`, when the model reads it.
    public var meta: ValueShape?
    /// The shape of the resource's own `links`, when the model reads them.
    public var links: ValueShape?
    /// What the model declares that the type system cannot catch, in the order found.
    public var findings: [ShapeFinding]

    /// Creates a shape from its parts (the initializer ``init(of:)`` works them out from a type).
    public init(
        typeName: String, resourceType: String, id: ValueShape?, readsLocalID: Bool = false,
        attributes: [MemberShape], relationships: [RelationshipShape], meta: ValueShape? = nil,
        links: ValueShape? = nil, findings: [ShapeFinding] = []
    ) {
        self.typeName = typeName
        self.resourceType = resourceType
        self.id = id
        self.readsLocalID = readsLocalID
        self.attributes = attributes
        self.relationships = relationships
        self.meta = meta
        self.links = links
        self.findings = findings
    }

    /// The attribute named `name` (a `CodingKey` string value), or nil.
    public func attribute(_ name: String) -> MemberShape? { attributes.first { $0.name == name } }

    /// The relationship named `name` (a `CodingKey` string value), or nil.
    public func relationship(_ name: String) -> RelationshipShape? { relationships.first { $0.name == name } }
}

/// A named member of a resource's `attributes`, or of an object inside an attribute.
public struct MemberShape: Sendable, Hashable {
    /// The member name: the `CodingKey` string value.
    public var name: String
    /// The shape of the member's value; ``ValueShape/isOptional`` says whether it may be absent
    /// or `null`.
    public var value: ValueShape

    /// Creates a member.
    public init(name: String, value: ValueShape) {
        self.name = name
        self.value = value
    }
}

/// The shape of a JSON value a model reads: its JSON kind, and whether it may be absent or `null`.
public struct ValueShape: Sendable, Hashable {
    /// What JSON a value is.
    public indirect enum Kind: Sendable, Hashable {
        /// A string, with a format when the Swift type gives one (`Date`, `URL`, `UUID`, `Data`).
        case string(format: StringFormat?)
        /// An integer (any fixed-width Swift integer).
        case integer
        /// A number (`Double`, `Float`, `Decimal`).
        case number
        /// `true` or `false`.
        case boolean
        /// An array whose elements have the given shape.
        case array(of: ValueShape)
        /// An object with the given members, in the order they are read.
        case object(members: [MemberShape])
        /// An object with any member names, whose values have the given shape (`[String: V]`).
        case dictionary(of: ValueShape)
        /// One of the given raw values: a `CaseIterable & RawRepresentable` enum.
        case enumeration(values: [JSON])
        /// Any JSON value (``JSON``, ``JSONValue``).
        case any
        /// A link: a URI string or a 1.1 link object (``Link``).
        case link
        /// A value whose shape could not be worked out: its initializer rejected every sample, it
        /// nests deeper than ``ResourceShape/maximumNesting``, or it is a relationship type inside
        /// an attribute. A ``ShapeFinding`` says which.
        case opaque
    }

    /// What JSON the value is.
    public var kind: Kind
    /// Whether the value may be absent or `null` (an `Optional`, a ``Field``, or read with
    /// `decodeIfPresent` or after `contains`/`decodeNil`).
    public var isOptional: Bool
    /// The Swift type the model reads the value as, such as `"Date"` or `"[String]"` (without
    /// `Optional`).
    public var typeName: String
    /// Limits a declaration puts on the value beyond its type, which descriptions of it (OpenAPI
    /// schemas) state; nil for none. The model's type alone never gives any.
    public var bounds: ValueBounds?

    /// Creates a value shape.
    public init(_ kind: Kind, isOptional: Bool = false, typeName: String) {
        self.kind = kind
        self.isOptional = isOptional
        self.typeName = typeName
    }
}

/// Limits on a value beyond its type: what a server's validation checks (`ResourceValidation` in
/// `JSONAPIServer`) and a schema of the value states.
public struct ValueBounds: Sendable, Hashable {
    /// The length of a string in Unicode scalars, as JSON Schema's `minLength` and `maxLength`
    /// count it; nil for no limit.
    public var length: ClosedRange<Int>?
    /// The values an integer may take; nil for no limit beyond its type's.
    public var range: ClosedRange<Int>?
    /// Whether a string may not hold U+0000 (a database's text cannot store it). Default false.
    public var excludesNullCharacter: Bool

    /// Creates bounds.
    public init(length: ClosedRange<Int>? = nil, range: ClosedRange<Int>? = nil, excludesNullCharacter: Bool = false) {
        self.length = length
        self.range = range
        self.excludesNullCharacter = excludesNullCharacter
    }
}

/// The format of a string value, named as JSON Schema names formats.
public struct StringFormat: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The format name, such as `"date-time"`.
    public var rawValue: String

    /// A format by name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An RFC 3339 date-time (`Date`, as ``DecodingOptions/DateDecodingStrategy/iso8601``, the
    /// default, reads it).
    public static let dateTime = StringFormat(rawValue: "date-time")
    /// A URI (`URL`).
    public static let uri = StringFormat(rawValue: "uri")
    /// A UUID (`UUID`).
    public static let uuid = StringFormat(rawValue: "uuid")
    /// Base64-encoded bytes (`Data`, as ``DecodingOptions/DataDecodingStrategy/base64``, the
    /// default, reads them).
    public static let byte = StringFormat(rawValue: "byte")

    public var description: String { rawValue }
}

/// A relationship a model reads: to one or to many, of which resource types, and how the model
/// holds the related resources.
public struct RelationshipShape: Sendable, Hashable {
    /// To one resource (`data` is an identifier or `null`) or to many (`data` is an array).
    public enum Cardinality: Sendable, Hashable {
        /// `data` is one resource identifier (or `null` when the relationship is optional).
        case toOne
        /// `data` is an array of resource identifiers.
        case toMany
    }

    /// How the model holds the related resources.
    public enum Representation: Sendable, Hashable {
        /// Linkage only (``Identifier``, `ResourceIdentifier`): the related resource need not be
        /// in the document.
        case identifier
        /// Decoded models (a ``JSONAPIResource`` or ``ResourceUnion``): the related resources
        /// must be in the document (`included`, or the primary data).
        case resource
        /// ``Lazy`` references: the related resources must be in the document, and are decoded
        /// when resolved.
        case lazy
    }

    /// The relationship name: the `CodingKey` string value.
    public var name: String
    /// To one or to many.
    public var cardinality: Cardinality
    /// How the model holds the related resources.
    public var representation: Representation
    /// The Swift type of one related resource, such as `"Person"`, `"Contributor"` (a union) or
    /// `"ResourceIdentifier"`.
    public var targetTypeName: String
    /// The resource types the relationship may link to: one model's `resourceType`, a union's
    /// member types, or empty for `ResourceIdentifier` (any type).
    public var targetResourceTypes: [String]
    /// Whether the target is a ``ResourceUnion``.
    public var isUnion: Bool
    /// Whether the relationship may be absent, or its linkage `null` (an `Optional`, a ``Field``,
    /// or read with `decodeIfPresent`).
    public var isOptional: Bool
    /// The shape of the relationship object's `meta`, when the model reads it (``Related`` with a
    /// meta type other than ``NoMeta``, or a key `name.meta`).
    public var meta: ValueShape?
    /// The shape of the relationship object's `links`, when the model reads them (``Related``
    /// with a links type other than ``NoLinks``, or a key `name.links`).
    public var links: ValueShape?

    /// Creates a relationship shape.
    public init(
        name: String, cardinality: Cardinality, representation: Representation, targetTypeName: String,
        targetResourceTypes: [String], isUnion: Bool = false, isOptional: Bool = false, meta: ValueShape? = nil,
        links: ValueShape? = nil
    ) {
        self.name = name
        self.cardinality = cardinality
        self.representation = representation
        self.targetTypeName = targetTypeName
        self.targetResourceTypes = targetResourceTypes
        self.isUnion = isUnion
        self.isOptional = isOptional
        self.meta = meta
        self.links = links
    }
}
