#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One resource identifier of a relationship's (or the primary data's) linkage.
struct LinkageReference {
    var type: String
    var id: String?
    var lid: String?
    /// The model to put in `included`, when the relationship holds models rather than identifiers.
    var model: (any JSONAPIResource & Encodable)?
    /// The resource identifier object's `meta` (``Identifier/meta``, ``Lazy/identifierMeta``).
    var meta: JSONObject? = nil

    var key: ResourceKey { ResourceKey(type: type, id: id, lid: lid) }
}

/// What identifies a resource for deduplication: `(type, id)`, or `(type, lid)` without an id.
struct ResourceKey: Hashable {
    var type: String
    var id: String?
    var lid: String?

    /// The id (or lid) alone: types are few, and equal keys still compare every member.
    func hash(into hasher: inout Hasher) {
        hasher.combine(id ?? lid)
    }

    init(type: String, id: String?, lid: String?) {
        self.type = type
        self.id = id
        self.lid = id == nil ? lid : nil
    }
}

/// Collects the linkage of one relationship (or of the primary data) from a Swift value.
struct LinkageBuilder {
    let context: EncodingContext
    /// Whether models need their identity now (linkage); primary data reads it when written.
    let resolvesIdentity: Bool
    var isToMany = false
    var references: [LinkageReference] = []
    var hasModels = false

    init(context: EncodingContext, resolvesIdentity: Bool = true) {
        self.context = context
        self.resolvesIdentity = resolvesIdentity
    }

    mutating func add(_ reference: LinkageReference) {
        references.append(reference)
    }

    /// Adds a model, a union of models, an identifier (of a model or a union), or an array or
    /// optional of them.
    mutating func addValue(_ value: Any) throws {
        if let linkage = value as? any LinkageEncodable {
            try linkage.collectLinkage(into: &self)
        } else if let model = value as? any JSONAPIResource & Encodable {
            try addModel(model)
        } else if let union = value as? any ResourceUnion {
            guard let payload = Mirror(reflecting: union).children.first?.value,
                let model = payload as? any JSONAPIResource & Encodable
            else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: [],
                        debugDescription: "a ResourceUnion case must carry an Encodable JSONAPIResource model"))
            }
            try addModel(model)
        } else if let related = value as? any RelatedEncodable {
            try addRelatedValue(related.relatedValue)
        } else if let identifier = value as? any UnionIdentifierConvertible {
            // A union's own identifier type (an enum with a case per member).
            add(identifier.linkageReference)
        } else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: [],
                    debugDescription: "\(type(of: value)) is neither a JSONAPIResource model nor an identifier"))
        }
    }

    /// Adds the value of a ``Related``: a relationship type as ``addValue(_:)`` does, any other
    /// value (a ``JSON``, say) as the linkage it encodes to, which must be `null`, a resource
    /// identifier object or an array of them (``RelationshipType``: a `Related` of any value is
    /// a relationship, its `data` read and written as that value).
    mutating func addRelatedValue(_ value: Any) throws {
        if RelationshipType.of(type(of: value)) != nil {
            try addValue(value)
            return
        }
        guard let encodable = value as? any Encodable else {
            throw untypedLinkageError(value, "is not Encodable")
        }
        let json: JSON
        if let value = value as? JSON {
            json = value
        } else {
            json = try context.box(encodable, path: []).json
        }
        switch json {
        case .null:
            break
        case .array(let elements):
            isToMany = true
            for element in elements { add(try untypedIdentifier(element, of: value)) }
        default:
            add(try untypedIdentifier(json, of: value))
        }
    }

    /// A resource identifier object of untyped linkage: `type`, `id` and `lid` strings and a
    /// `meta` object, nothing else.
    private func untypedIdentifier(_ json: JSON, of value: Any) throws -> LinkageReference {
        guard case .object(let members) = json else {
            throw untypedLinkageError(value, "encodes \(json), not a resource identifier object")
        }
        var reference = LinkageReference(type: "", id: nil, lid: nil, model: nil)
        var hasType = false
        for entry in members {
            let (name, member) = (entry.key, entry.value)
            switch (name, member) {
            case ("type", .string(let type)):
                reference.type = type
                hasType = true
            case ("id", .string(let id)): reference.id = id
            case ("lid", .string(let lid)): reference.lid = lid
            case ("meta", .object(let meta)): reference.meta = JSONObject(meta)
            default:
                throw untypedLinkageError(
                    value, "has `\(name)`: \(member), which a resource identifier object cannot hold")
            }
        }
        guard hasType, reference.id != nil || reference.lid != nil else {
            throw untypedLinkageError(value, "encodes \(json), which lacks a `type` string or an `id` or `lid`")
        }
        return reference
    }

    private func untypedLinkageError(_ value: Any, _ problem: String) -> EncodingError {
        EncodingError.invalidValue(
            value,
            EncodingError.Context(
                codingPath: [],
                debugDescription:
                    "the value of a Related (\(type(of: value))) \(problem); its data must be null, a resource identifier object or an array of them"
            ))
    }

    /// Adds a model: its identity (when needed now) and the model itself, for `included`.
    mutating func addModel<Model: JSONAPIResource & Encodable>(_ model: Model) throws {
        let type = Model.resourceType
        hasModels = true
        guard resolvesIdentity else {
            references.append(LinkageReference(type: type, id: nil, lid: nil, model: model))
            return
        }
        let identity = try context.identity(of: model, resourceType: type)
        references.append(LinkageReference(type: type, id: identity.id, lid: identity.lid, model: model))
    }
}

/// One relationship of a resource being encoded.
struct EncodedRelationship {
    var name: String
    var linkage: LinkageBuilder?
    var meta: EncodedValue?
    var links: EncodedValue?
    /// Whether the linkage holds models (candidates for `included`), not only identifiers.
    var hasModels: Bool { linkage?.hasModels ?? false }
}

/// The `Encoder` a model encodes itself to: sorts its keys into the resource object's `id`,
/// `lid`, `attributes`, `relationships`, `meta` and `links`. Relationship values are never
/// encoded through it (only their identities are read), so encoding never recurses into the
/// resource graph.
final class ResourceEncoder: Encoder {
    let context: EncodingContext
    /// The resource's type (an identity-only encoder is reused for models of other types).
    var resourceType: String
    /// Only `id` and `lid` are read (to write linkage to the model).
    let identityOnly: Bool
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    var id: String?
    var lid: String?
    let attributes: EncodedObject
    var relationships: [EncodedRelationship] = []
    var meta: EncodedValue?
    var links: EncodedValue?
    var failure: (any Error)?

    init(context: EncodingContext, resourceType: String, identityOnly: Bool = false) {
        self.context = context
        self.resourceType = resourceType
        self.identityOnly = identityOnly
        attributes = EncodedObject(capacity: identityOnly ? 0 : 16)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(ResourceKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fail("an array")
        return ValueUnkeyedContainer(context: context, array: EncodedArray(), codingPath: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        fail("a single value")
        return ValueSingleContainer(encoder: ValueEncoder(context: context, codingPath: []))
    }

    private func fail(_ what: String) {
        guard failure == nil, !identityOnly else { return }
        failure = EncodingError.invalidValue(
            resourceType,
            EncodingError.Context(
                codingPath: [],
                debugDescription: "a `\(resourceType)` model must encode a keyed container, not \(what)"))
    }

    func relationshipIndex(_ name: String) -> Int {
        if let index = relationships.firstIndex(where: { $0.name == name }) { return index }
        relationships.append(EncodedRelationship(name: name))
        return relationships.count - 1
    }

    func identityString<T: Encodable>(_ value: T, key: any CodingKey) throws -> String? {
        try context.identityString(value, key: key)
    }
}

extension EncodingContext {
    /// The string of an `id` or `lid` value: a string, a UUID, an integer, any
    /// `LosslessStringConvertible`.
    func identityString<T: Encodable>(_ value: T, key: any CodingKey) throws -> String? {
        switch value {
        case let value as String: return value
        case let value as UUID: return value.uuidString
        case let value as any LosslessStringConvertible: return value.description
        default: break
        }
        switch try box(value, path: [key]) {
        case .string(let string): return string
        case .int(let int): return String(int)
        case .uint(let int): return String(int)
        case .null: return nil
        default:
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(codingPath: [key], debugDescription: "an id must be a string or an integer"))
        }
    }
}

/// Where a member of a model goes, and its name there.
enum MemberSection {
    case attribute(String)
    case relationship(String)
    case relationshipMeta(String)
    case relationshipLinks(String)
    case id, lid, type, meta, links
}

extension EncodingContext {
    /// Where the member for `key` goes: `id`, `lid`, `type`, `meta` and `links` by name, keys
    /// with a dot by their prefix or suffix (`attributes.x`, `relationships.x`, `x.meta`,
    /// `x.links`), anything else to the attributes under the key strategy.
    @inline(__always)
    func section(of key: some CodingKey) -> MemberSection {
        let raw = key.stringValue
        let count = raw.utf8.count
        // Compare only names of the right length: most keys are none of these.
        switch count {
        case 2: if raw == "id" { return .id }
        case 3: if raw == "lid" { return .lid }
        case 4:
            if raw == "type" { return .type }
            if raw == "meta" { return .meta }
        case 5: if raw == "links" { return .links }
        default:
            // The shortest dotted forms are "x.meta" and "x.links".
            if count >= 6 && hasDot(raw) { return dottedSection(raw) }
        }
        if usesDefaultKeys { return .attribute(raw) }
        return .attribute(name(for: key, path: []))
    }

    @inline(__always)
    private func hasDot(_ raw: String) -> Bool {
        // Coding keys are native strings: scan their bytes, not the UTF-8 view's iterator.
        unsafe raw.utf8.withContiguousStorageIfAvailable { unsafe $0.contains(UInt8(ascii: ".")) }
            ?? raw.utf8.contains(UInt8(ascii: "."))
    }

    private func dottedSection(_ raw: String) -> MemberSection {
        if raw.hasPrefix("attributes.") { return .attribute(memberName(raw.dropFirst(11))) }
        if raw.hasPrefix("relationships.") { return .relationship(memberName(raw.dropFirst(14))) }
        if raw.hasSuffix(".meta") { return .relationshipMeta(memberName(raw.dropLast(5))) }
        if raw.hasSuffix(".links") { return .relationshipLinks(memberName(raw.dropLast(6))) }
        return .attribute(usesDefaultKeys ? raw : name(for: AnyKey(raw), path: []))
    }

    private func memberName(_ raw: Substring) -> String {
        name(for: AnyKey(String(raw)), path: [])
    }
}

struct ResourceKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ResourceEncoder
    var codingPath: [any CodingKey] { [] }

    private func section(_ key: Key) -> MemberSection { encoder.context.section(of: key) }

    private func put(_ value: EncodedValue, _ key: Key) {
        guard !encoder.identityOnly else { return }
        if case .attribute(let name) = section(key) {
            encoder.attributes.set(name, value)
        } else {
            // id, lid, meta and links given as primitives go through the generic path.
            encoder.failure =
                encoder.failure
                ?? EncodingError.invalidValue(
                    key.stringValue,
                    EncodingError.Context(codingPath: [key], debugDescription: "unexpected value for this member"))
        }
    }

    mutating func encodeNil(forKey key: Key) throws {
        guard !encoder.identityOnly else { return }
        switch section(key) {
        case .attribute(let name): encoder.attributes.set(name, .null)
        case .relationship(let name):
            let index = encoder.relationshipIndex(name)
            encoder.relationships[index].linkage = LinkageBuilder(context: encoder.context)
        case .meta: encoder.meta = nil
        case .links: encoder.links = nil
        case .relationshipMeta, .relationshipLinks, .id, .lid, .type: break
        }
    }

    mutating func encode(_ value: String, forKey key: Key) throws { try encode(value as String?, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.float(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try encodeInteger(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeInteger(value, key) }

    private func encode(_ value: String?, _ key: Key) throws {
        guard let value else { return }
        switch section(key) {
        case .id: encoder.id = value
        case .lid: encoder.lid = value
        case .type: break
        case .attribute(let name): if !encoder.identityOnly { encoder.attributes.set(name, .string(value)) }
        default: try encodeGeneric(value, key)
        }
    }

    private func encodeInteger<I: BinaryInteger & Encodable>(_ value: I, _ key: Key) throws {
        switch section(key) {
        case .id: encoder.id = String(value)
        case .lid: encoder.lid = String(value)
        case .attribute(let name):
            guard !encoder.identityOnly else { return }
            if let int = Int64(exactly: value) {
                encoder.attributes.set(name, .int(int))
            } else if let uint = UInt64(exactly: value) {
                encoder.attributes.set(name, .uint(uint))
            }
        default: try encodeGeneric(value, key)
        }
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encodeGeneric(value, key)
    }

    /// A value, or for `nil` nothing, except that a nil to-one relationship is known-empty
    /// linkage, `{"data": null}` (synthesized conformances call this for every optional).
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else {
            if !encoder.identityOnly && encoder.context.writesNull(forNil: T.self, key: key) {
                try encodeGeneric(NullLinkage(), key)
            }
            return
        }
        try encodeGeneric(value, key)
    }

    private func encodeGeneric<T: Encodable>(_ value: T, _ key: Key) throws {
        let section = section(key)
        let context = encoder.context
        switch section {
        case .id:
            encoder.id = try encoder.identityString(value, key: key)
            return
        case .lid:
            encoder.lid = try encoder.identityString(value, key: key)
            return
        case .type:
            return
        default:
            break
        }
        guard !encoder.identityOnly else { return }
        switch section {
        case .meta:
            encoder.meta = try context.box(value, path: [key])
        case .links:
            encoder.links = try context.box(value, path: [key])
        case .relationshipMeta(let name):
            let index = encoder.relationshipIndex(name)
            encoder.relationships[index].meta = try context.box(value, path: [key])
        case .relationshipLinks(let name):
            let index = encoder.relationshipIndex(name)
            encoder.relationships[index].links = try context.box(value, path: [key])
        case .relationship(let name):
            try encodeRelationship(value, name: name)
        case .attribute(let name):
            if context.kind(of: T.self).isRelationship {
                try encodeRelationship(value, name: name)
            } else {
                encoder.attributes.set(name, try context.box(value, path: [key]))
            }
        case .id, .lid, .type:
            break
        }
    }

    private func encodeRelationship<T: Encodable>(_ value: T, name: String) throws {
        var linkage = LinkageBuilder(context: encoder.context)
        let index = encoder.relationshipIndex(name)
        if let direct = T.self as? any DirectLinkageEncodable.Type {
            // Identifiers, arrays, optionals: no copy of the value into an existential box.
            try direct.collect(value, into: &linkage)
        } else if let related = value as? any RelatedEncodable {
            try linkage.addRelatedValue(related.relatedValue)
            if let meta = related.relatedMeta {
                encoder.relationships[index].meta = try encoder.context.box(meta, path: [AnyKey(name)])
            }
            if let links = related.relatedLinks {
                encoder.relationships[index].links = try encoder.context.box(links, path: [AnyKey(name)])
            }
        } else {
            try linkage.addValue(value)
        }
        encoder.relationships[index].linkage = linkage
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let object = EncodedObject()
        if !encoder.identityOnly {
            switch section(key) {
            case .attribute(let name): encoder.attributes.set(name, .object(object))
            case .meta: encoder.meta = .object(object)
            case .links: encoder.links = .object(object)
            default: break
            }
        }
        return KeyedEncodingContainer(
            ValueKeyedContainer<NestedKey>(context: encoder.context, object: object, codingPath: [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let array = EncodedArray()
        if !encoder.identityOnly, case .attribute(let name) = section(key) {
            encoder.attributes.set(name, .array(array))
        }
        return ValueUnkeyedContainer(context: encoder.context, array: array, codingPath: [key])
    }

    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let object = EncodedObject()
        if !encoder.identityOnly, case .attribute(let name) = section(key) {
            encoder.attributes.set(name, .object(object))
        }
        let nested = ValueEncoder(context: encoder.context, codingPath: [key])
        nested.result = .object(object)
        return nested
    }
}
