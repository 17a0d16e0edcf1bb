#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What decoding needs to know about a Swift type that does not depend on the document: how it
/// decodes (``ResourceDecoder/TypeInfo/Kind``) and which of the library's protocols it conforms
/// to. Worked out once per process and type.
///
/// Each `T.self as? any P.Type` that fails is a search of every conformance record the process
/// has loaded (Foundation alone has thousands), O(conformances) per question, and a type is asked
/// about a dozen protocols. Asked again for every decode, that search would be a fixed cost on
/// every call, so the answers are kept here instead.
struct TypeTraits: @unchecked Sendable {
    // @unchecked: every stored property is a metatype, a string, a Boolean or an array of
    // strings; metatypes are immutable process-wide metadata.
    var kind: ResourceDecoder.TypeInfo.Kind
    var model: (any JSONAPIResource.Type)?
    var lossless: (any LosslessStringConvertible.Type)?
    var needsTarget: Bool
    var readsRelationshipObject: Bool
    var linkageArray: (any LinkageArrayDecodable.Type)?
    /// The union's name and its members' resource types, for a ``ResourceUnion`` (or a lazy
    /// reference to one, or an identifier of one).
    var union: (name: String, memberNames: [String])?
    /// The type's reader initializer, for a ``ResourceReadable`` type.
    var readable: (any ResourceReadable.Type)?

    private static let known = Locked<[ObjectIdentifier: TypeTraits]>([:])

    /// The traits of `T`, from the process-wide cache when it has them.
    static func of<T>(_ type: T.Type) -> TypeTraits {
        let id = ObjectIdentifier(T.self)
        if let found = known.withLock({ $0[id] }) { return found }
        let traits = make(T.self)
        known.withLock { $0[id] = traits }
        return traits
    }

    private static func make<T>(_ type: T.Type) -> TypeTraits {
        // One question for all the internal markers: a type that is not `DecodingMarked` (a plain
        // model or attribute struct) conforms to none of them.
        let marked = T.self is any DecodingMarked.Type
        let kind: ResourceDecoder.TypeInfo.Kind
        // Identifiers of a union (``UnionIdentifier``, or an enum with a case per member) read
        // from linkage alone and skip what their union does not handle, as the union does.
        let unionIdentifier = T.self as? any UnionIdentifierConvertible.Type
        if T.self == Date.self {
            kind = .date
        } else if T.self == Data.self {
            kind = .data
        } else if T.self == URL.self {
            kind = .url
        } else if T.self == Decimal.self {
            kind = .decimal
        } else if T.self == UUID.self {
            kind = .uuid
        } else if marked, let scalar = T.self as? any ScalarDecodable.Type {
            kind = .scalar(scalar)
        } else if marked, let direct = T.self as? any DirectDecodable.Type {
            kind = .direct(direct)
        } else if let unionIdentifier {
            kind = .direct(unionIdentifier.directDecoding)
        } else if marked, let marker = T.self as? any DecodableArrayMarker.Type {
            kind = .array(marker)
        } else if marked, let marker = T.self as? any DecodableOptionalMarker.Type {
            kind = .optional(marker)
        } else if marked, let marker = T.self as? any DecodableDictionaryMarker.Type {
            kind = .dictionary(marker)
        } else {
            kind = .plain
        }
        let lazyModel = marked ? (T.self as? any LazyMarker.Type)?.model : nil
        let unionType =
            (T.self as? any ResourceUnion.Type) ?? (lazyModel as? any ResourceUnion.Type) ?? unionIdentifier?.unionType
        return TypeTraits(
            kind: kind, model: T.self as? any JSONAPIResource.Type,
            lossless: T.self as? any LosslessStringConvertible.Type,
            needsTarget: !(marked && T.self is any LinkageDecodable.Type) && unionIdentifier == nil,
            readsRelationshipObject: marked && T.self is any RelationshipObjectDecodable.Type,
            linkageArray: marked ? T.self as? any LinkageArrayDecodable.Type : nil,
            union: unionType.map { (name: String(describing: $0), memberNames: $0.memberResourceTypes) },
            readable: T.self as? any ResourceReadable.Type)
    }
}
