import JSONAPI
import OpenAPIKit

/// Builds the schemas of one model from its `ResourceShape`: the resource object as a
/// response carries it, as a create body and as an update body, resource identifiers and
/// relationship objects.
///
/// | Member | Response | Create | Update |
/// |---|---|---|---|
/// | `type` | required, the model's type | required | required |
/// | `id` | required | optional, required or absent (``JSONAPISchemaOptions/WriteRules``) | required |
/// | `lid` (1.1) | optional | optional | optional |
/// | attributes | optional (``JSONAPISchemaOptions/requiresFieldsInResponses``) | non-optional ones required | all optional |
/// | relationships | `links`, `data` or `meta` | `data` required; non-optional to-one required | `data` required; all optional |
/// | `links` | optional | not allowed | not allowed |
///
/// Read-only members (``JSONAPISchemaOptions/WriteRules``) are left out of create and update
/// bodies. Attribute values are typed from their value shapes; an optional one also allows `null`.
/// Linkage names the related type: the target model's `resourceType`, or a union's member types.
struct ResourceSchemaBuilder {
    /// Where a resource object appears.
    enum Purpose {
        case response, create, update
    }

    let shape: ResourceShape
    let options: JSONAPISchemaOptions
    let shared: SchemaBuilder
    let names: MemberNames

    init(shape: ResourceShape, options: JSONAPISchemaOptions, shared: SchemaBuilder) {
        self.shape = shape
        self.options = options
        self.shared = shared
        var keys = shape.attributes.map(\.name) + shape.relationships.map(\.name)
        var pending = shape.attributes.map(\.value)
        while let value = pending.popLast() {
            switch value.kind {
            case .object(let members):
                keys += members.map(\.name)
                pending += members.map(\.value)
            case .array(let element), .dictionary(let element): pending.append(element)
            default: break
            }
        }
        names = MemberNames(keys, options: options.encoding)
    }

    /// The member name written for the coding-key name `key`.
    func name(_ key: String) -> String { names[key] }

    // MARK: Resource objects

    /// The resource object for `purpose`.
    func resourceObject(_ purpose: Purpose) -> JSONSchema {
        var properties: OrderedDictionary<String, JSONSchema> = [
            "type": .string(
                description: "The resource type.", allowedValues: [AnyCodable(shape.resourceType)])
        ]
        let rules = options.writeRules[shape.resourceType] ?? JSONAPISchemaOptions.WriteRules()
        switch (purpose, rules.createID) {
        case (.create, .forbidden): break
        case (.create, .optional): properties["id"] = idSchema(required: false)
        default: properties["id"] = idSchema(required: true)
        }
        if options.allowsLocalIdentifiers || purpose == .response {
            properties["lid"] = .string(
                required: false, description: "A local id: the resource within this request (JSON:API 1.1).")
        }

        var attributes: OrderedDictionary<String, JSONSchema> = [:]
        for attribute in shape.attributes where purpose == .response || !rules.readOnly.contains(attribute.name) {
            let required: Bool
            switch purpose {
            case .response: required = options.requiresFieldsInResponses && !attribute.value.isOptional
            case .create: required = !attribute.value.isOptional
            case .update: required = false
            }
            attributes[name(attribute.name)] = valueSchema(attribute.value).requiring(required)
        }
        if !attributes.isEmpty || !shape.attributes.isEmpty {
            let anyRequired = attributes.values.contains { $0.required }
            properties["attributes"] = JSONSchema.object(
                description: "The attributes of `\(shape.resourceType)`.", properties: attributes,
                additionalProperties: .a(false)
            ).requiring(anyRequired)
        }

        var relationships: OrderedDictionary<String, JSONSchema> = [:]
        for relationship in shape.relationships
        where purpose == .response || !rules.readOnly.contains(relationship.name) {
            let required: Bool
            switch purpose {
            case .response: required = options.requiresFieldsInResponses && !relationship.isOptional
            case .create: required = !relationship.isOptional && relationship.cardinality == .toOne
            case .update: required = false
            }
            relationships[name(relationship.name)] = relationshipObject(relationship, request: purpose != .response)
                .requiring(required)
        }
        if !relationships.isEmpty {
            let anyRequired = relationships.values.contains { $0.required }
            properties["relationships"] = JSONSchema.object(
                description: "The relationships of `\(shape.resourceType)`.", properties: relationships,
                additionalProperties: .a(false)
            ).requiring(anyRequired)
        }

        if purpose == .response { properties["links"] = shared.schema(.resourceLinks, required: false) }
        properties["meta"] = shared.schema(.meta, required: false)

        let description: String
        switch purpose {
        case .response: description = "A `\(shape.resourceType)` resource object."
        case .create: description = "A new `\(shape.resourceType)` resource object, as a create request sends it."
        case .update:
            description = "A `\(shape.resourceType)` resource object as an update request sends it: only what changes."
        }
        return .object(description: description, properties: properties, additionalProperties: .a(false))
    }

    /// The `id` member: a string (JSON:API ids are strings whatever the Swift type), constrained
    /// by the model's id type where it says something (integers, UUIDs).
    func idSchema(required: Bool) -> JSONSchema {
        // Never empty: an empty id names no resource, and no URL.
        let description = "The resource id."
        switch shape.id?.kind {
        case .integer?:
            return .string(required: required, description: description + " An integer.", pattern: "^-?[0-9]+$")
        case .string(let format?)? where format == .uuid:
            return .string(format: .uuid, required: required, description: description)
        default:
            // Ids a data source cannot store U+0000 in say so, as its text attributes do.
            let pattern =
                shape.id?.bounds?.excludesNullCharacter == true ? "^[^\\u0000]+" + JSONAPISchemas.patternEnd : nil
            return .string(required: required, description: description, minLength: 1, pattern: pattern)
        }
    }

    // MARK: Linkage

    /// A resource identifier object of one of `types` (any type when empty). In a request, a
    /// 1.1 `lid` may stand for the `id` (when the options and `localIDs` allow it).
    func identifier(types: [String], request: Bool, localIDs allowed: Bool = true) -> JSONSchema {
        let type: JSONSchema =
            types.isEmpty
            ? .string(minLength: 1) : .string(allowedValues: types.map { AnyCodable($0) })
        let localIDs = request && allowed && options.allowsLocalIdentifiers && options.allowsLocalIdentifierLinkage
        let object = JSONSchema.object(
            description: "A resource identifier object.",
            properties: [
                "type": type,
                "id": .string(required: !localIDs, minLength: 1),
                "lid": .string(required: false),
                "meta": shared.schema(.meta, required: false),
            ],
            additionalProperties: .a(false))
        guard localIDs else { return object }
        return .all(
            of: [
                object,
                .any(of: [
                    .object(properties: ["id": .fragment(required: true)]),
                    .object(properties: ["lid": .fragment(required: true)]),
                ]),
            ],
            core: .init(description: "A resource identifier object: `type`, and `id` or a local `lid`."))
    }

    /// The linkage of `relationship`: an identifier (or null when optional), or an array of them.
    func linkage(_ relationship: RelationshipShape, request: Bool, localIDs: Bool = true) -> JSONSchema {
        let identifier = identifier(types: relationship.targetResourceTypes, request: request, localIDs: localIDs)
        switch relationship.cardinality {
        case .toMany:
            return .array(description: "Resource linkage: the related resources.", items: identifier)
        case .toOne:
            guard relationship.isOptional else { return identifier }
            return .one(
                of: [identifier, .null()],
                core: .init(description: "Resource linkage: the related resource, or null for none."))
        }
    }

    /// A relationship object. In a response: `links`, `data` and `meta`, at least one of them; in
    /// a request body: `data` (required) and `meta`.
    func relationshipObject(_ relationship: RelationshipShape, request: Bool) -> JSONSchema {
        if request {
            return .object(
                properties: [
                    "data": linkage(relationship, request: true),
                    "meta": shared.schema(.meta, required: false),
                ],
                additionalProperties: .a(false))
        }
        return .object(
            minProperties: 1,
            properties: [
                "links": shared.schema(.relationshipLinks, required: false),
                "data": linkage(relationship, request: false).requiring(false),
                "meta": shared.schema(.meta, required: false),
            ],
            additionalProperties: .a(false))
    }

    // MARK: Attribute values

    /// The schema of an attribute value; an optional value also allows `null`.
    func valueSchema(_ value: ValueShape) -> JSONSchema {
        let schema = nonNullValueSchema(value)
        guard value.isOptional else { return schema }
        if case .fragment = schema.value { return schema }
        // `anyOf`, not `oneOf`: a value that may itself be null (a link) must not fail for
        // matching both.
        return .any(of: [schema, .null()], core: .init())
    }

    private func nonNullValueSchema(_ value: ValueShape) -> JSONSchema {
        switch value.kind {
        case .string(let format):
            // A plain string the data source cannot store U+0000 in says so with a pattern.
            let pattern =
                format == nil && value.bounds?.excludesNullCharacter == true
                ? "^[^\\u0000]*" + JSONAPISchemas.patternEnd : nil
            let length = value.bounds?.length
            if length != nil || pattern != nil, format == nil || !["Date", "Data"].contains(value.typeName) {
                return .string(
                    format: format.map { JSONTypeFormat.StringFormat(rawValue: $0.rawValue) } ?? .unspecified,
                    minLength: length?.lowerBound ?? 0, maxLength: length?.upperBound, pattern: pattern)
            }
            return stringSchema(format: format, typeName: value.typeName)
        case .integer:
            return Self.integerSchema(typeName: value.typeName, bounds: value.bounds?.range)
        case .number: return .number
        case .boolean: return .boolean
        case .array(let element): return .array(items: valueSchema(element))
        case .object(let members):
            var properties: OrderedDictionary<String, JSONSchema> = [:]
            for member in members {
                properties[name(member.name)] = valueSchema(member.value).requiring(!member.value.isOptional)
            }
            return .object(properties: properties)
        case .dictionary(let element):
            return .object(additionalProperties: .b(valueSchema(element)))
        case .enumeration(let values):
            let allowed = values.map(Self.anyCodable)
            if values.allSatisfy({ if case .string = $0 { true } else { false } }) {
                return .string(allowedValues: allowed)
            }
            if values.allSatisfy({ if case .int = $0 { true } else { false } }) {
                return .integer(allowedValues: allowed)
            }
            return .fragment(allowedValues: allowed)
        case .any: return .fragment(description: "Any JSON value.")
        case .link: return shared.schema(.link)
        case .opaque: return .fragment(description: "A value whose shape the model does not reveal.")
        }
    }

    /// A string of `format`, or what the encoding strategies write instead for dates and data.
    private func stringSchema(format: StringFormat?, typeName: String) -> JSONSchema {
        if format == .dateTime, typeName == "Date" {
            switch options.encoding.dateEncodingStrategy {
            case .iso8601, .iso8601WithFractionalSeconds: return .string(format: .dateTime)
            case .secondsSince1970: return .number(description: "Seconds since 1970-01-01T00:00:00Z.")
            case .millisecondsSince1970: return .number(description: "Milliseconds since 1970-01-01T00:00:00Z.")
            case .deferredToDate: return .number(description: "Seconds since 2001-01-01T00:00:00Z.")
            case .custom: return .fragment(description: "A date, as the encoder's custom strategy writes it.")
            }
        }
        if format == .byte, typeName == "Data" {
            switch options.encoding.dataEncodingStrategy {
            case .base64: return .string(contentEncoding: .base64)
            case .deferredToData:
                return .array(items: .integer(maximum: (255, exclusive: false), minimum: (0, exclusive: false)))
            case .custom: return .fragment(description: "Bytes, as the encoder's custom strategy writes them.")
            }
        }
        guard let format else { return .string }
        return .string(format: JSONTypeFormat.StringFormat(rawValue: format.rawValue))
    }

    /// An integer within the range of the Swift type that reads it (a larger one does not
    /// decode): `Int` and `Int64` are 64-bit, `UInt64` and `UInt` bounded below only.
    /// `bounds`, when given, narrow the range (a declaration's validation).
    static func integerSchema(
        typeName: String, required: Bool = true, description: String? = nil, bounds: ClosedRange<Int>? = nil
    ) -> JSONSchema {
        var range: (minimum: Int, maximum: Int?)?
        switch typeName {
        case "Int", "Int64": range = (Int(Int64.min), Int(Int64.max))
        case "Int32": range = (Int(Int32.min), Int(Int32.max))
        case "Int16": range = (Int(Int16.min), Int(Int16.max))
        case "Int8": range = (Int(Int8.min), Int(Int8.max))
        case "UInt32": range = (0, Int(UInt32.max))
        case "UInt16": range = (0, Int(UInt16.max))
        case "UInt8": range = (0, Int(UInt8.max))
        case "UInt", "UInt64": range = (0, nil)
        default: range = nil
        }
        if let bounds {
            let type = range ?? (Int.min, nil)
            let maximum = type.maximum.map { min($0, bounds.upperBound) } ?? bounds.upperBound
            range = (max(type.minimum, bounds.lowerBound), maximum)
        }
        guard let range else { return .integer(required: required, description: description) }
        return .integer(
            required: required, description: description, maximum: range.maximum.map { ($0, exclusive: false) },
            minimum: (range.minimum, exclusive: false))
    }

    private static func anyCodable(_ value: JSON) -> AnyCodable {
        switch value {
        case .null: AnyCodable(nil as String?)
        case .bool(let bool): AnyCodable(bool)
        case .int(let int): AnyCodable(int)
        case .double(let double): AnyCodable(double)
        case .decimal(let text): Double(text).map { AnyCodable($0) } ?? AnyCodable(text)
        case .string(let string): AnyCodable(string)
        case .array(let elements): AnyCodable(elements.map(anyCodable))
        case .object(let members):
            AnyCodable(
                Dictionary(members.map { ($0.key, anyCodable($0.value)) }, uniquingKeysWith: { first, _ in first }))
        }
    }
}
