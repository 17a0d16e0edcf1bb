// The probing decoder for attribute values: its containers record the JSON a type reads (an
// object's members, an array's element, a single value) and answer with samples.

/// What a type's initializer read from its value.
final class ValueRecorder {
    enum Read {
        case nothing
        case single(ValueShape)
        case object
        case array
    }

    /// A member's value: a shape, or a nested container still being read.
    enum Entry {
        case shape(ValueShape)
        case nested(ValueRecorder)
    }

    let isDictionary: Bool
    var read = Read.nothing
    var nullable = false
    var members: [(name: String, entry: Entry)] = []
    var element: Entry?
    /// Whether an array's element was tested for `null`.
    var elementNullable = false
    /// Members read after `contains` or `decodeNil`, or with `decodeIfPresent`.
    var optionalMembers: Set<String> = []

    init(isDictionary: Bool) {
        self.isDictionary = isDictionary
    }

    func member(_ name: String, _ entry: Entry) {
        if let index = members.firstIndex(where: { $0.name == name }) {
            members[index].entry = entry
        } else {
            members.append((name, entry))
        }
    }

    /// The shape read, for a type named `typeName`. A type that reads nothing accepts any value.
    /// Nested recorders are as deep as the nested containers an initializer asked for, which
    /// ``ValueProbeDecoder/nested(_:)`` bounds.
    func shape(typeName: String) -> ValueShape {
        func resolve(_ entry: Entry, _ name: String) -> ValueShape {
            switch entry {
            case .shape(let shape): shape
            case .nested(let recorder): recorder.shape(typeName: name)
            }
        }
        var shape: ValueShape
        switch read {
        case .nothing:
            shape = ValueShape(.any, typeName: typeName)
        case .single(let inner):
            shape = inner
        case .array:
            var elementShape = element.map { resolve($0, "element") } ?? ValueShape(.opaque, typeName: "?")
            if elementNullable { elementShape.isOptional = true }
            shape = ValueShape(.array(of: elementShape), typeName: typeName)
        case .object:
            let members = members.map { member in
                var value = resolve(member.entry, member.name)
                if optionalMembers.contains(member.name) { value.isOptional = true }
                return MemberShape(name: member.name, value: value)
            }
            if isDictionary, let element = members.first {
                shape = ValueShape(.dictionary(of: element.value), typeName: typeName)
            } else {
                shape = ValueShape(.object(members: members), typeName: typeName)
            }
        }
        if nullable { shape.isOptional = true }
        return shape
    }
}

struct ValueProbeDecoder: Decoder {
    let probe: ShapeProbe
    let recorder: ValueRecorder
    let path: [String]
    let depth: Int

    var codingPath: [any CodingKey] { path.map { AnyKey($0) } }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        recorder.read = .object
        return KeyedDecodingContainer(ValueKeyedProbe<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        recorder.read = .array
        if atNestingBound {
            probe.note(
                .nestingTooDeep, path,
                "values nest deeper than \(ResourceShape.maximumNesting) levels (a type that contains itself?); the rest is not described"
            )
        }
        return ValueUnkeyedProbe(decoder: self)
    }

    /// At ``ResourceShape/maximumNesting`` an array is empty and an optional `nil`, so that a type
    /// that contains itself through them (`struct Node { var children: [Node] }`) still gets a
    /// sample.
    var atNestingBound: Bool { depth >= ResourceShape.maximumNesting }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueSingleProbe(decoder: self)
    }

    /// The shape and sample of a `T` one level down at `childPath`; throws when no sample could
    /// be made (a finding says why).
    func child<T: Decodable>(_ type: T.Type, at childPath: [String]) throws -> (ValueShape, T) {
        let (shape, sample) = probe.value(T.self, path: childPath, depth: depth + 1)
        guard let sample else {
            throw ShapeProbeFailure(description: "no sample of \(T.self) at \(childPath.joined(separator: "."))")
        }
        return (shape, sample)
    }

    /// A decoder for a nested container named `name`.
    func nested(_ name: String) throws -> ValueProbeDecoder {
        guard depth < ResourceShape.maximumNesting else {
            probe.note(
                .nestingTooDeep, path + [name],
                "values nest deeper than \(ResourceShape.maximumNesting) levels; the rest is not described")
            throw ShapeProbeFailure(description: "nested containers deeper than \(ResourceShape.maximumNesting)")
        }
        return ValueProbeDecoder(
            probe: probe, recorder: ValueRecorder(isDictionary: false), path: path + [name], depth: depth + 1)
    }
}

struct ValueKeyedProbe<Key: CodingKey>: ProbeKeyedForwarding {
    let decoder: ValueProbeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    /// One sample member for a dictionary (which iterates its keys); none for other types.
    var allKeys: [Key] { decoder.recorder.isDictionary ? [Key(stringValue: "key")].compactMap { $0 } : [] }

    func contains(_ key: Key) -> Bool {
        decoder.recorder.optionalMembers.insert(key.stringValue)
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.recorder.optionalMembers.insert(key.stringValue)
        return false
    }

    func read<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let (shape, sample) = try decoder.child(T.self, at: decoder.path + [key.stringValue])
        decoder.recorder.member(key.stringValue, .shape(shape))
        return sample
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        decoder.recorder.optionalMembers.insert(key.stringValue)
        let (shape, sample) = decoder.probe.value(
            T.self, path: decoder.path + [key.stringValue], depth: decoder.depth + 1)
        decoder.recorder.member(key.stringValue, .shape(shape))
        return sample
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = try decoder.nested(key.stringValue)
        decoder.recorder.member(key.stringValue, .nested(nested.recorder))
        return try nested.container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let nested = try decoder.nested(key.stringValue)
        decoder.recorder.member(key.stringValue, .nested(nested.recorder))
        return try nested.unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        let nested = try decoder.nested(key.stringValue)
        decoder.recorder.member(key.stringValue, .nested(nested.recorder))
        return nested
    }
}

/// An array of one element (none at ``ResourceShape/maximumNesting``).
struct ValueUnkeyedProbe: ProbeUnkeyedForwarding {
    let decoder: ValueProbeDecoder
    var currentIndex = 0

    init(decoder: ValueProbeDecoder) {
        self.decoder = decoder
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { decoder.atNestingBound ? 0 : 1 }
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    mutating func decodeNil() throws -> Bool {
        decoder.recorder.elementNullable = true
        return false
    }

    mutating func read<T: Decodable>(_ type: T.Type) throws -> T {
        let (shape, sample) = try decoder.child(T.self, at: decoder.path + ["\(currentIndex)"])
        if decoder.recorder.element == nil { decoder.recorder.element = .shape(shape) }
        currentIndex += 1
        return sample
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let nested = try decoder.nested("\(currentIndex)")
        if decoder.recorder.element == nil { decoder.recorder.element = .nested(nested.recorder) }
        currentIndex += 1
        return try nested.container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let nested = try decoder.nested("\(currentIndex)")
        if decoder.recorder.element == nil { decoder.recorder.element = .nested(nested.recorder) }
        currentIndex += 1
        return try nested.unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let nested = try decoder.nested("\(currentIndex)")
        if decoder.recorder.element == nil { decoder.recorder.element = .nested(nested.recorder) }
        currentIndex += 1
        return nested
    }
}

struct ValueSingleProbe: ProbeSingleValueForwarding {
    let decoder: ValueProbeDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        decoder.recorder.nullable = true
        guard decoder.atNestingBound else { return false }
        decoder.probe.note(
            .nestingTooDeep, decoder.path,
            "values nest deeper than \(ResourceShape.maximumNesting) levels (a type that contains itself?); the rest is not described"
        )
        return true
    }

    /// The same JSON value read as `T`, one level down all the same, so that a type reading
    /// itself this way cannot recurse without bound.
    func read<T: Decodable>(_ type: T.Type) throws -> T {
        let (shape, sample) = decoder.probe.value(T.self, path: decoder.path, depth: decoder.depth + 1)
        guard let sample else {
            throw ShapeProbeFailure(description: "no sample of \(T.self) at \(decoder.path.joined(separator: "."))")
        }
        decoder.recorder.read = .single(shape)
        return sample
    }
}
