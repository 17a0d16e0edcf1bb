/// A member that may be absent, `null`, or hold a value: the three states a PATCH request or a
/// sparse fieldset can give an attribute or relationship, which `Optional` folds into two.
///
/// Declare the property as `Field<T>` (not optional) and the synthesized `init(from:)` does the
/// rest: a missing member decodes as ``absent``, `null` as ``null``, anything else as
/// ``value(_:)``.
///
/// ```swift
/// struct ArticlePatch: Decodable, JSONAPIResource {
///     static let resourceType = "articles"
///     var id: String
///     var title: Field<String>        // {"title": "New"} -> .value("New")
///     var subtitle: Field<String>     // {"subtitle": null} -> .null (clear it)
///     var author: Field<Identifier<Person>>   // not sent -> .absent (leave it)
/// }
/// ```
///
/// This works with any `Decoder`, `JSONDecoder` included: an overload of
/// `KeyedDecodingContainer.decode(_:forKey:)` for `Field` checks `contains(_:)` and
/// `decodeNil(forKey:)` first. For a relationship, `null` linkage is ``null``, and so is a
/// relationship object without `data` (links or meta only).
public enum Field<Value> {
    /// The member is not in the object.
    case absent
    /// The member is `null`.
    case null
    /// The member has a value.
    case value(Value)

    /// The value, or nil when absent or null.
    public var wrapped: Value? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// Whether the member is absent.
    public var isAbsent: Bool {
        if case .absent = self { return true }
        return false
    }

    /// Whether the member is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Transforms the value, keeping absent and null.
    public func map<U>(_ transform: (Value) throws -> U) rethrows -> Field<U> {
        switch self {
        case .absent: .absent
        case .null: .null
        case .value(let value): .value(try transform(value))
        }
    }
}

extension Field: Sendable where Value: Sendable {}
extension Field: Equatable where Value: Equatable {}
extension Field: Hashable where Value: Hashable {}

extension Field: AbsentRepresentable {
    static var absentValue: Any { Field.absent }
}

extension Field: Decodable where Value: Decodable {
    /// Decodes ``null`` or ``value(_:)`` from a single value (``absent`` is decided by the
    /// keyed container, which knows whether the member exists).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else {
            self = .value(try container.decode(Value.self))
        }
    }
}

extension KeyedDecodingContainer {
    /// Decodes a ``Field``: ``Field/absent`` when the key is missing, ``Field/null`` for `null`.
    public func decode<Value: Decodable>(_ type: Field<Value>.Type, forKey key: Key) throws -> Field<Value> {
        guard contains(key) else { return .absent }
        if try decodeNil(forKey: key) { return .null }
        return .value(try decode(Value.self, forKey: key))
    }

    /// Decodes an optional ``Field``: nil when the key is missing.
    public func decodeIfPresent<Value: Decodable>(_ type: Field<Value>.Type, forKey key: Key) throws
        -> Field<Value>?
    {
        guard contains(key) else { return nil }
        return try decode(Field<Value>.self, forKey: key)
    }
}
