// The probing decoder for a resource object: its keyed container sorts each key as the
// decoder's lookup does (`id`, `type`, `lid`, then attributes or relationships by the property's
// type, then the resource's `meta` and `links`; `attributes.x`, `relationships.x`, `x.meta` and
// `x.links` name a section), records it, and answers with a sample.

/// What a model's initializer read from its resource object.
final class ResourceRecorder {
    let probe: ShapeProbe
    let resourceType: String
    var id: ValueShape?
    var readsLocalID = false
    var attributes: [MemberShape] = []
    var relationships: [RelationshipShape] = []
    var meta: ValueShape?
    var links: ValueShape?
    /// `name.meta` and `name.links` read before or without the relationship `name`.
    var parts: [String: (meta: ValueShape?, links: ValueShape?)] = [:]
    /// How many times each key was read.
    var reads: [String: Int] = [:]
    /// Keys tested with `contains` or `decodeNil`: absent or `null` is expected.
    var tested: Set<String> = []
    /// Attributes read through a nested container, whose shape is known once the model is built.
    var nestedAttributes: [String: ValueRecorder] = [:]

    init(probe: ShapeProbe, resourceType: String) {
        self.probe = probe
        self.resourceType = resourceType
    }

    /// Where a key is read from.
    enum Slot {
        case id, lid, type, meta, links
        case attribute(String)
        case relationship(String)
        case relationshipMeta(String)
        case relationshipLinks(String)
        /// By the property's type.
        case member(String)
    }

    static func slot(_ key: String) -> Slot {
        switch key {
        case "id": return .id
        case "lid": return .lid
        case "type": return .type
        case "meta": return .meta
        case "links": return .links
        default: break
        }
        if key.hasPrefix("attributes.") { return .attribute(String(key.dropFirst(11))) }
        if key.hasPrefix("relationships.") { return .relationship(String(key.dropFirst(14))) }
        if key.hasSuffix(".meta") && key.count > 5 { return .relationshipMeta(String(key.dropLast(5))) }
        if key.hasSuffix(".links") && key.count > 6 { return .relationshipLinks(String(key.dropLast(6))) }
        return .member(key)
    }

    /// Records an attribute read through a nested container (`nestedContainer(keyedBy:forKey:)`).
    func nested(_ name: String, _ recorder: ValueRecorder) {
        count(name)
        nestedAttributes[name] = recorder
        if !attributes.contains(where: { $0.name == name }) {
            attributes.append(MemberShape(name: name, value: ValueShape(.any, typeName: "nested container")))
        }
    }

    private func count(_ key: String) {
        reads[key, default: 0] += 1
        if reads[key] == 2 {
            probe.note(
                .keyReadTwice, [key], "the initializer reads `\(key)` more than once; each read sees the same member")
        }
    }

    /// Records a read of `key` as `T` and returns a sample; nil only when `optional` (read with
    /// `decodeIfPresent`) and there is no sample, or for an optional relationship.
    func read<T: Decodable>(_ type: T.Type, key: String, optional: Bool) throws -> T? {
        count(key)
        let optional = optional || tested.contains(key)
        switch Self.slot(key) {
        case .id:
            let (shape, sample) = value(T.self, ["id"], optional)
            id = shape
            return try sampleOrThrow(sample, optional, key)
        case .lid:
            readsLocalID = true
            return try sampleOrThrow(value(T.self, ["lid"], optional).1, optional, key)
        case .type:
            probe.note(
                .notAttributeOrRelationship, ["type"],
                "`type` is neither an attribute nor a relationship: it is the resource's type, always `\(resourceType)` for this model; remove the property or compute it"
            )
            if let name = resourceType as? T { return name }
            return try sampleOrThrow(value(T.self, ["type"], optional).1, optional, key)
        case .meta:
            let (shape, sample) = value(T.self, ["meta"], optional)
            meta = shape
            return try sampleOrThrow(sample, optional, key)
        case .links:
            let (shape, sample) = value(T.self, ["links"], optional)
            links = shape
            return try sampleOrThrow(sample, optional, key)
        case .relationshipMeta(let name):
            let (shape, sample) = value(T.self, [name, "meta"], optional)
            setPart(name, meta: shape)
            return try sampleOrThrow(sample, optional, key)
        case .relationshipLinks(let name):
            let (shape, sample) = value(T.self, [name, "links"], optional)
            setPart(name, links: shape)
            return try sampleOrThrow(sample, optional, key)
        case .attribute(let name):
            return try attribute(T.self, name, optional, key)
        case .relationship(let name):
            if let kind = RelationshipKind.of(T.self) { return try relationship(T.self, name, kind, optional) }
            probe.note(
                .notAttributeOrRelationship, [name],
                "`\(key)` names a relationship, but \(T.self) is not a relationship type (a model, union, Identifier, ResourceIdentifier, Lazy or Related)"
            )
            return try attribute(T.self, name, optional, key)
        case .member(let name):
            if let kind = RelationshipKind.of(T.self) { return try relationship(T.self, name, kind, optional) }
            return try attribute(T.self, name, optional, key)
        }
    }

    private func value<T: Decodable>(_ type: T.Type, _ path: [String], _ optional: Bool) -> (ValueShape, T?) {
        var (shape, sample) = probe.value(T.self, path: path, depth: 1)
        if optional { shape.isOptional = true }
        return (shape, sample)
    }

    private func sampleOrThrow<T>(_ sample: T?, _ optional: Bool, _ key: String) throws -> T? {
        if let sample { return sample }
        if optional { return nil }
        throw ShapeProbeFailure(description: "no sample value for `\(key)`")
    }

    private func attribute<T: Decodable>(_ type: T.Type, _ name: String, _ optional: Bool, _ key: String) throws -> T? {
        let (shape, sample) = value(T.self, [name], optional)
        if let index = attributes.firstIndex(where: { $0.name == name }) {
            attributes[index].value = shape
        } else {
            attributes.append(MemberShape(name: name, value: shape))
        }
        return try sampleOrThrow(sample, optional, key)
    }

    private func relationship<T: Decodable>(
        _ type: T.Type, _ name: String, _ kind: RelationshipKind, _ optional: Bool
    ) throws -> T? {
        var shape = RelationshipShape(
            name: name, cardinality: kind.cardinality, representation: kind.representation,
            targetTypeName: kind.targetTypeName, targetResourceTypes: kind.targets, isUnion: kind.isUnion,
            isOptional: kind.isOptional || optional)
        if let meta = kind.meta { shape.meta = partShape(meta, [name, "meta"]) }
        if let links = kind.links { shape.links = partShape(links, [name, "links"]) }
        if let index = relationships.firstIndex(where: { $0.name == name }) {
            relationships[index] = shape
        } else {
            relationships.append(shape)
        }
        // An optional relationship is left out: no sample to build, and no cycle to guard.
        if optional { return nil }
        return try probe.relationshipSample(T.self)
    }

    /// A ``Related`` value's meta or links type, read as an optional value.
    private func partShape(_ type: any Decodable.Type, _ path: [String]) -> ValueShape {
        var shape = probedShape(type, path)
        shape.isOptional = true
        return shape
    }

    private func probedShape<T: Decodable>(_ type: T.Type, _ path: [String]) -> ValueShape {
        probe.value(T.self, path: path, depth: 1).0
    }

    private func setPart(_ name: String, meta: ValueShape? = nil, links: ValueShape? = nil) {
        var part = parts[name] ?? (nil, nil)
        if let meta { part.meta = meta }
        if let links { part.links = links }
        parts[name] = part
    }

    /// The relationships, with the `name.meta` and `name.links` parts read on their own.
    func finishedRelationships() -> [RelationshipShape] {
        var result = relationships
        for index in result.indices {
            let name = result[index].name
            if let part = parts[name] {
                if let meta = part.meta { result[index].meta = meta }
                if let links = part.links { result[index].links = links }
            }
            if tested.contains(name) { result[index].isOptional = true }
        }
        for name in parts.keys.sorted() where !result.contains(where: { $0.name == name }) {
            probe.note(
                .notAttributeOrRelationship, [name],
                "the initializer reads the meta or links of a relationship `\(name)` it does not read itself")
        }
        return result
    }

    /// The attributes, optional where the initializer tested for absence or `null`.
    func finishedAttributes() -> [MemberShape] {
        attributes.map { attribute in
            var attribute = attribute
            if let nested = nestedAttributes[attribute.name] {
                attribute.value = nested.shape(typeName: attribute.value.typeName)
            }
            if tested.contains(attribute.name) { attribute.value.isOptional = true }
            return attribute
        }
    }
}

struct ResourceProbeDecoder: Decoder {
    let recorder: ResourceRecorder

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(ResourceKeyedProbe<Key>(recorder: recorder))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw notAnObject("an unkeyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw notAnObject("a single value")
    }

    private func notAnObject(_ what: String) -> DecodingError {
        DecodingError.typeMismatch(
            [String: Any].self,
            DecodingError.Context(
                codingPath: [], debugDescription: "a resource object is read with a keyed container, not as \(what)"))
    }
}

struct ResourceKeyedProbe<Key: CodingKey>: ProbeKeyedForwarding {
    let recorder: ResourceRecorder

    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool {
        recorder.tested.insert(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        recorder.tested.insert(key.stringValue)
        return false
    }

    func read<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = try recorder.read(T.self, key: key.stringValue, optional: false) else {
            throw ShapeProbeFailure(description: "no sample value for `\(key.stringValue)`")
        }
        return value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try recorder.read(T.self, key: key.stringValue, optional: true)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try nestedDecoder(key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nestedDecoder(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ResourceProbeDecoder(recorder: recorder) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try nestedDecoder(key) }

    /// A nested container under a resource key is an attribute value read piece by piece.
    private func nestedDecoder(_ key: Key) throws -> ValueProbeDecoder {
        let name = key.stringValue
        let decoder = ValueProbeDecoder(
            probe: recorder.probe, recorder: ValueRecorder(isDictionary: false), path: [name], depth: 1)
        recorder.nested(name, decoder.recorder)
        return decoder
    }
}
