#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// How a shape is found. A model's `init(from:)` runs against `ResourceProbeDecoder`, whose keyed
// container records each key and the type asked for it (in a `ResourceRecorder`) and answers
// with a sample of that type. An attribute's sample comes from `ShapeProbe.value`, which either
// knows the type (strings, numbers, dates, enums, the document views) or runs the type's own
// initializer against `ValueProbeDecoder`, whose containers record the JSON the type reads (in a
// `ValueRecorder`). A relationship's sample is empty (`[]`, `nil`), an identifier, a `Lazy` over a
// one-resource document, or a model built by the same probe without recording, with a guard
// against cycles.
//
// Samples come in variants (`ShapeProbe.variant`): when an initializer throws, it is run again
// with the next set of strings and numbers, so a validating initializer that wants an e-mail
// address or a URL still yields a value. A budget of initializer runs bounds the retries, which
// nest.

/// Why a sample could not be made; caught inside the probe, never seen by callers.
struct ShapeProbeFailure: Error, CustomStringConvertible {
    var description: String
}

/// The state of one shape computation: findings, the models being built as samples, the sample
/// variant and the retry budget.
final class ShapeProbe {
    /// Strings tried in turn on a type that rejects the previous one.
    static let strings = [
        "sample", "1", "user@example.com", "https://example.com/", "2000-01-01T00:00:00Z", "a",
        "00000000-0000-0000-0000-000000000001",
    ]
    static let integers = [1, 0, 2, 10, 100, -1, 1000]
    static let numbers = [1.5, 0, 1, 0.5, 100, -1, 1000]

    /// How many times in total an initializer may be run again on new samples.
    static let retryBudget = 4096

    var findings: [ShapeFinding] = []
    /// Models and unions being built as samples, innermost last: one met again is a cycle.
    var building: [ObjectIdentifier]
    var variant = 0
    /// Shared with the probes of samples, so nested retries draw on one budget.
    let budget: Budget

    final class Budget {
        var remaining = ShapeProbe.retryBudget
    }

    init(building: [ObjectIdentifier], budget: Budget = Budget()) {
        self.building = building
        self.budget = budget
    }

    func note(_ kind: ShapeFinding.Kind, _ path: [String], _ message: String) {
        let finding = ShapeFinding(kind, path: path, message: message)
        if !findings.contains(finding) { findings.append(finding) }
    }

    var sampleString: String { Self.strings[variant % Self.strings.count] }

    /// Runs `body` with each sample variant until it returns; the first error if none does.
    func withVariants<R>(_ body: () throws -> R) throws -> R {
        let outer = variant
        defer { variant = outer }
        var firstError: (any Error)?
        for attempt in 0..<Self.strings.count {
            if attempt > 0 {
                guard budget.remaining > 0 else { break }
                budget.remaining -= 1
            }
            variant = (outer + attempt) % Self.strings.count
            do {
                return try body()
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? ShapeProbeFailure(description: "no sample was accepted")
    }
}

// MARK: - Values

extension ShapeProbe {
    /// The shape of a `T` read at `path`, `depth` attribute levels down, and a sample of it (nil
    /// when no sample could be made, which a finding explains).
    func value<T: Decodable>(_ type: T.Type, path: [String], depth: Int) -> (ValueShape, T?) {
        let name = String(describing: T.self)
        if let known = knownValue(T.self) { return known }
        if RelationshipKind.of(T.self) != nil {
            note(
                .relationshipInAttribute, path,
                "\(name) is a relationship type inside an attribute value; only a model's own properties (or an optional or array of one) are relationships"
            )
            return (ValueShape(.opaque, typeName: name), try? relationshipSample(T.self))
        }
        if let enumeration = enumerationValue(T.self) { return enumeration }
        guard depth <= ResourceShape.maximumNesting else {
            note(
                .nestingTooDeep, path,
                "values nest deeper than \(ResourceShape.maximumNesting) levels (a type that contains itself?); the rest is not described"
            )
            return (ValueShape(.opaque, typeName: name), ShapeWrapperRole.emptySample(of: T.self))
        }
        let isDictionary = (T.self as? any ShapeWrapper.Type)?.shapeRole == .dictionary
        var recorder = ValueRecorder(isDictionary: isDictionary)
        do {
            let sample = try withVariants {
                recorder = ValueRecorder(isDictionary: isDictionary)
                return try T(from: ValueProbeDecoder(probe: self, recorder: recorder, path: path, depth: depth))
            }
            return (recorder.shape(typeName: name), sample)
        } catch {
            note(
                .sampleRejected, path,
                "\(name)'s initializer rejected every sample value (\(error)); its shape is not described")
            return (ValueShape(.opaque, typeName: name), nil)
        }
    }

    /// Types described without running their initializer: scalars, Foundation's value types,
    /// the library's JSON types and document views.
    private func knownValue<T: Decodable>(_ type: T.Type) -> (ValueShape, T?)? {
        let name = String(describing: T.self)
        func shape(_ kind: ValueShape.Kind, _ sample: Any?) -> (ValueShape, T?) {
            (ValueShape(kind, typeName: name), sample as? T)
        }
        switch TypeTraits.of(T.self).kind {
        case .date: return shape(.string(format: .dateTime), Date(timeIntervalSince1970: 946_684_800))
        case .data: return shape(.string(format: .byte), Data("sample".utf8))
        case .url: return shape(.string(format: .uri), URL(string: "https://example.com/"))
        case .decimal: return shape(.number, Decimal(Self.integers[variant % Self.integers.count]))
        case .uuid: return shape(.string(format: .uuid), UUID(uuidString: "00000000-0000-0000-0000-000000000001"))
        case .scalar: return scalarValue(T.self)
        default: break
        }
        if T.self == JSON.self { return shape(.any, JSON.string(sampleString)) }
        if T.self == JSONValue.self { return shape(.any, viewSample(T.self)) }
        if T.self == JSONObject.self {
            return shape(.dictionary(of: ValueShape(.any, typeName: "JSONValue")), viewSample(T.self))
        }
        if T.self == Links.self {
            return shape(.dictionary(of: ValueShape(.link, typeName: "Link")), viewSample(T.self))
        }
        if T.self == Link.self { return shape(.link, Link(href: "https://example.com/")) }
        return nil
    }

    private func scalarValue<T: Decodable>(_ type: T.Type) -> (ValueShape, T?) {
        let name = String(describing: T.self)
        let integer = Self.integers[variant % Self.integers.count]
        let number = Self.numbers[variant % Self.numbers.count]
        let kind: ValueShape.Kind
        let sample: Any?
        switch T.self {
        case is String.Type: (kind, sample) = (.string(format: nil), sampleString)
        case is Bool.Type: (kind, sample) = (.boolean, variant % 2 == 0)
        case is Double.Type: (kind, sample) = (.number, number)
        case is Float.Type: (kind, sample) = (.number, Float(number))
        case let integerType as any FixedWidthInteger.Type:
            (kind, sample) = (.integer, integerType.init(exactly: integer) ?? integerType.init(exactly: 1))
        default: (kind, sample) = (.any, nil)
        }
        return (ValueShape(kind, typeName: name), sample as? T)
    }

    /// A document view (`JSONValue`, `JSONObject`, `Links`), which only `JSONAPIDecoder` makes:
    /// decoded from a small document's top-level `meta`.
    private func viewSample<T: Decodable>(_ type: T.Type) -> T? {
        let text = #"{"meta":{"self":"https://example.com/"}}"#
        return try? JSONAPIDecoder().decode(TopLevelMeta<T>.self, from: Array(text.utf8)).meta
    }

    /// A `CaseIterable` enum with raw values: its values, and its first case as the sample.
    private func enumerationValue<T: Decodable>(_ type: T.Type) -> (ValueShape, T?)? {
        guard let iterable = T.self as? any CaseIterable.Type, T.self is any RawRepresentable.Type else {
            return nil
        }
        let cases = allCases(of: iterable)
        var values: [JSON] = []
        for element in cases {
            guard let raw = (element as? any RawRepresentable).flatMap({ rawJSON($0.rawValue) }) else { return nil }
            values.append(raw)
        }
        return (ValueShape(.enumeration(values: values), typeName: String(describing: T.self)), cases.first as? T)
    }

    private func allCases<C: CaseIterable>(of type: C.Type) -> [Any] { C.allCases.map { $0 } }

    private func rawJSON(_ raw: Any) -> JSON? {
        switch raw {
        case let string as String: return .string(string)
        case let bool as Bool: return .bool(bool)
        case let integer as any BinaryInteger: return Int64(exactly: integer).map(JSON.int)
        case let double as Double: return .double(double)
        case let float as Float: return .double(Double(float))
        case let character as Character: return .string(String(character))
        default: return nil
        }
    }
}

/// A document's top-level `meta`, for samples of the document views.
private struct TopLevelMeta<T: Decodable>: Decodable {
    var meta: T
}

// MARK: - Relationships

extension ShapeProbe {
    /// A value of a relationship type: empty for optionals and arrays, an identifier, a `Lazy`
    /// over a one-resource document, or a model or union built by a probe that records nothing.
    func relationshipSample<T: Decodable>(_ type: T.Type) throws -> T {
        if let empty = ShapeWrapperRole.emptySample(of: T.self) { return empty }
        if let related = T.self as? any ShapeRelatedMarker.Type {
            if let sample = try related.shapeSample(self) as? T { return sample }
        }
        if let identifier = T.self as? any ShapeIdentifierMarker.Type, let sample = identifier.shapeSample as? T {
            return sample
        }
        if T.self == ResourceIdentifier.self, let sample = ResourceIdentifier(type: "sample", id: "1") as? T {
            return sample
        }
        if let lazy = T.self as? any LazyMarker.Type {
            return try lazySample(T.self, resourceType: sampleResourceType(lazy.model) ?? "sample")
        }
        guard let resourceType = sampleResourceType(T.self) else {
            throw ShapeProbeFailure(description: "\(T.self) is not a relationship type")
        }
        let id = ObjectIdentifier(T.self)
        guard !building.contains(id) else {
            throw ShapeProbeFailure(
                description:
                    "\(T.self) contains itself through non-optional to-one relationships; no sample can be built")
        }
        let inner = ShapeProbe(building: building + [id], budget: budget)
        return try inner.withVariants {
            try T(from: ResourceProbeDecoder(recorder: ResourceRecorder(probe: inner, resourceType: resourceType)))
        }
    }

    /// The resource type a sample of `type` has: a model's, or a union's first member's.
    func sampleResourceType(_ type: Any.Type) -> String? {
        if let model = type as? any JSONAPIResource.Type { return model.resourceType }
        if let union = type as? any ResourceUnion.Type { return union.memberResourceTypes.first }
        return nil
    }

    private func lazySample<T: Decodable>(_ type: T.Type, resourceType: String) throws -> T {
        let document: JSON = ["data": ["type": .string(resourceType), "id": "1"]]
        return try JSONAPIDecoder().decode(T.self, from: Array(document.jsonString().utf8))
    }
}

// MARK: - Markers

// The decoder's markers (`TypeTraits`) tell what a type is; these add what a shape needs and
// those do not expose: the element or wrapped type, an empty value, a relationship's parts.

/// What a wrapper type is.
enum ShapeWrapperRole: Equatable {
    case optional, array, dictionary, field

    /// The empty value of an optional (`nil`), array (`[]`), dictionary (`[:]`) or ``Field``
    /// (``Field/absent``) type; nil for other types.
    static func emptySample<T>(of type: T.Type) -> T? {
        (T.self as? any ShapeWrapper.Type)?.shapeEmpty as? T
    }
}

/// Optionals, arrays, `[String: V]` dictionaries and ``Field``.
protocol ShapeWrapper {
    static var shapeRole: ShapeWrapperRole { get }
    static var shapeElement: any Decodable.Type { get }
    static var shapeEmpty: Any { get }
}

extension Optional: ShapeWrapper where Wrapped: Decodable {
    static var shapeRole: ShapeWrapperRole { .optional }
    static var shapeElement: any Decodable.Type { Wrapped.self }
    static var shapeEmpty: Any { Optional<Wrapped>.none as Any }
}

extension Array: ShapeWrapper where Element: Decodable {
    static var shapeRole: ShapeWrapperRole { .array }
    static var shapeElement: any Decodable.Type { Element.self }
    static var shapeEmpty: Any { [Element]() }
}

extension Dictionary: ShapeWrapper where Key == String, Value: Decodable {
    static var shapeRole: ShapeWrapperRole { .dictionary }
    static var shapeElement: any Decodable.Type { Value.self }
    static var shapeEmpty: Any { [String: Value]() }
}

extension Field: ShapeWrapper where Value: Decodable {
    static var shapeRole: ShapeWrapperRole { .field }
    static var shapeElement: any Decodable.Type { Value.self }
    static var shapeEmpty: Any { Field<Value>.absent }
}

/// ``Identifier``: its model, and a sample.
protocol ShapeIdentifierMarker {
    static var shapeTarget: any JSONAPIResource.Type { get }
    static var shapeSample: Any { get }
}

extension Identifier: ShapeIdentifierMarker {
    static var shapeTarget: any JSONAPIResource.Type { Model.self }
    static var shapeSample: Any { Identifier(id: "1") }
}

/// ``Related``: its value, meta and links types, and a sample.
protocol ShapeRelatedMarker {
    static var shapeValue: any Decodable.Type { get }
    static var shapeMeta: (any Decodable.Type)? { get }
    static var shapeLinks: (any Decodable.Type)? { get }
    static func shapeSample(_ probe: ShapeProbe) throws -> Any
}

extension Related: ShapeRelatedMarker {
    static var shapeValue: any Decodable.Type { Value.self }
    static var shapeMeta: (any Decodable.Type)? { Meta.self == NoMeta.self ? nil : Meta.self }
    static var shapeLinks: (any Decodable.Type)? { Links.self == NoLinks.self ? nil : Links.self }
    static func shapeSample(_ probe: ShapeProbe) throws -> Any {
        Related(value: try probe.relationshipSample(Value.self))
    }
}

/// What a relationship-typed property is, from its type alone: `nil` for attribute types.
///
/// Whether a type is a relationship at all, and its cardinality, is ``RelationshipType``'s rule
/// (the encoder's too); this adds what a shape publishes: the representation, the target's
/// name and resource types, and the relationship object's meta and links types.
struct RelationshipKind {
    var cardinality: RelationshipShape.Cardinality
    var representation: RelationshipShape.Representation
    var targetTypeName: String
    var targets: [String]
    var isUnion: Bool
    var isOptional: Bool
    var meta: (any Decodable.Type)?
    var links: (any Decodable.Type)?

    static func of(_ type: any Decodable.Type) -> RelationshipKind? {
        guard let relationship = RelationshipType.of(type) else { return nil }
        var kind = target(relationship.target)
        kind.cardinality = relationship.isToMany ? .toMany : .toOne
        kind.isOptional = relationship.isOptional
        if let related = relationship.related as? any ShapeRelatedMarker.Type {
            kind.meta = related.shapeMeta
            kind.links = related.shapeLinks
        }
        return kind
    }

    /// A ``Related`` whose value is none of the relationship types (a `JSONValue`, say): the
    /// decoder reads the relationship object's `data` into it as it is.
    private static func untyped(_ type: Any.Type) -> RelationshipKind {
        RelationshipKind(
            cardinality: .toOne, representation: .identifier, targetTypeName: String(describing: type), targets: [],
            isUnion: false, isOptional: false)
    }

    private static func target(_ target: RelationshipType.Target) -> RelationshipKind {
        switch target {
        case .identifier(let type):
            if let identifier = type as? any ShapeIdentifierMarker.Type {
                return RelationshipKind(
                    cardinality: .toOne, representation: .identifier,
                    targetTypeName: String(describing: identifier.shapeTarget),
                    targets: [identifier.shapeTarget.resourceType], isUnion: false, isOptional: false)
            }
            // A union's identifier reads as the union does; `ResourceIdentifier` names no target.
            if var kind = (type as? any Decodable.Type).flatMap(resource) {
                kind.representation = .identifier
                return kind
            }
            return RelationshipKind(
                cardinality: .toOne, representation: .identifier, targetTypeName: String(describing: type),
                targets: [], isUnion: false, isOptional: false)
        case .lazy(let model):
            guard let decodable = model as? any Decodable.Type, var kind = resource(decodable) else {
                return RelationshipKind(
                    cardinality: .toOne, representation: .lazy, targetTypeName: String(describing: model),
                    targets: [], isUnion: false, isOptional: false)
            }
            kind.representation = .lazy
            return kind
        case .resource(let type):
            return (type as? any Decodable.Type).flatMap(resource) ?? untyped(type)
        case .untyped(let type):
            return untyped(type)
        }
    }

    /// A model or union, as the decoder's `TypeTraits` see it.
    private static func resource(_ type: any Decodable.Type) -> RelationshipKind? {
        traits(type)
    }

    private static func traits<T: Decodable>(_ type: T.Type) -> RelationshipKind? {
        let traits = TypeTraits.of(T.self)
        if let union = traits.union {
            return RelationshipKind(
                cardinality: .toOne, representation: .resource, targetTypeName: union.name,
                targets: union.memberNames, isUnion: true, isOptional: false)
        }
        if let model = traits.model {
            return RelationshipKind(
                cardinality: .toOne, representation: .resource, targetTypeName: String(describing: T.self),
                targets: [model.resourceType], isUnion: false, isOptional: false)
        }
        return nil
    }
}
