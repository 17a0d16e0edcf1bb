#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// Types the decoder treats specially, recognised by conformance to these internal protocols so
// that the element or wrapped type is known statically where it matters: arrays are walked with
// their element type in hand (to skip missing or unhandled resources, and to read `[String]`
// without a container per element), optionals decide between `nil` and an error, and
// `[String: V]` keeps member names as they are (no key strategy), as `JSONDecoder` does.

// Each marker method is generic in its result `R`, which the caller passes as the very type it
// found the marker on (`T.self as? any DecodableArrayMarker.Type` gives the marker of `T`), so the
// result converts with ``sameType(_:as:)``: no boxing in `Any`, no dynamic cast, no `Optional<T>`.

/// Converts a value to the type it already has, where the compiler cannot see that.
///
/// SAFETY: every caller has established that `T` and `U` are the same type (by comparing
/// metatypes, or by receiving `T` as the type a marker protocol was found on), so the bits are
/// a valid `T`. `unsafeBitCast` checks that the sizes match.
@inline(__always)
func sameType<T, U>(_ value: U, as type: T.Type) -> T {
    // SAFETY: callers have checked `U.self == T.self`, so this is the identity.
    unsafe unsafeBitCast(value, to: T.self)
}

/// The root of the decoder's internal marker protocols: a type that conforms to none of the
/// library's protocols answers one conformance question here instead of one per marker.
///
/// A failed `T.self as? any P.Type` searches every conformance record the process has loaded
/// (in a server, tens of thousands with Foundation and NIO), and ``TypeTraits`` would ask a plain
/// model struct about each marker in turn. Every marker refines this protocol, so a type that
/// does not conform to it conforms to no marker, and the answers are the same.
protocol DecodingMarked {}

// The generic containers are marked whatever their elements: their marker conformances are
// conditional, and a conditional conformance does not imply the inherited one. Marked only
// means "ask about the markers".
extension Array: DecodingMarked {}
extension Optional: DecodingMarked {}
extension Dictionary: DecodingMarked {}

/// `Array` of any `Decodable`.
protocol DecodableArrayMarker: DecodingMarked {
    static func decodeArray<R>(from decoder: ResourceDecoder, _ node: Node, as type: R.Type) throws -> R
}

extension Array: DecodableArrayMarker where Element: Decodable {
    static func decodeArray<R>(from decoder: ResourceDecoder, _ node: Node, as type: R.Type) throws -> R {
        sameType(try decoder.decodeElements(Element.self, node), as: R.self)
    }
}

/// `Optional` of any `Decodable`.
protocol DecodableOptionalMarker: DecodingMarked {
    static func decodeOptional<R>(from decoder: ResourceDecoder, _ node: Node, key: KeyRef, as type: R.Type)
        throws -> R
}

extension Optional: DecodableOptionalMarker where Wrapped: Decodable {
    static func decodeOptional<R>(from decoder: ResourceDecoder, _ node: Node, key: KeyRef, as type: R.Type)
        throws -> R
    {
        sameType(try decoder.decodeOptional(Wrapped.self, node, key: key), as: R.self)
    }
}

/// `[String: V]`.
protocol DecodableDictionaryMarker: DecodingMarked {
    static func decodeDictionary<R>(from decoder: ResourceDecoder, _ node: Node, as type: R.Type) throws -> R
}

extension Dictionary: DecodableDictionaryMarker where Key == String, Value: Decodable {
    static func decodeDictionary<R>(from decoder: ResourceDecoder, _ node: Node, as type: R.Type) throws -> R {
        sameType(try decoder.decodeStringDictionary(Value.self, node), as: R.self)
    }
}

/// Types that decode from a resource identifier alone, so a linkage to a resource the document
/// does not contain is no reason to skip or fail.
protocol LinkageDecodable: DecodingMarked {}

/// Types that decode a relationship object itself (its linkage, meta and links), so an optional
/// of one is `nil` only when the relationship is absent, not when its linkage is `null`.
protocol RelationshipObjectDecodable: DecodingMarked {}

/// Types with a value for a member that is absent (``Field``).
protocol AbsentRepresentable {
    static var absentValue: Any { get }
}

/// ``Lazy`` references, so unions inside them are recognised.
protocol LazyMarker: DecodingMarked {
    static var model: Any.Type { get }
}

/// Types that decode a whole array from a run of linkage records themselves (``Identifier``):
/// one generic call per array instead of one per element, and no copy of each element through
/// the generic result. Used only for types that need no target resource and are no union, so
/// no element is ever skipped.
protocol LinkageArrayDecodable: DecodingMarked {
    /// Appends the elements to `result` (whose element type `R` is `Self`) through `append`.
    static func appendLinkages<R, Result>(
        from decoder: ResourceDecoder, first: UInt32, count: Int, into result: inout Result,
        append: (inout Result, R) -> Void
    ) throws
}

/// The library's own view-like types (identifiers, lazy references, document views), which
/// read what they need from the node directly: no `Decoder` round trip, no frame, no cast.
/// They decode nothing nested, so errors they throw carry `key` in their coding path.
protocol DirectDecodable: DecodingMarked {
    static func decodeDirect(from decoder: ResourceDecoder, _ node: Node, key: KeyRef) throws -> Self

    /// ``decodeDirect(from:_:key:)`` as the type `R` the decoder found this reader on: `Self`,
    /// except for a reader that stands in for a type the library cannot conform
    /// (``ConvertedUnionIdentifier``), which returns that type.
    static func decodeDirect<R>(from decoder: ResourceDecoder, _ node: Node, key: KeyRef, as type: R.Type)
        throws -> R
}

extension DirectDecodable {
    static func decodeDirect<R>(from decoder: ResourceDecoder, _ node: Node, key: KeyRef, as type: R.Type)
        throws -> R
    {
        sameType(try decodeDirect(from: decoder, node, key: key), as: R.self)
    }
}
