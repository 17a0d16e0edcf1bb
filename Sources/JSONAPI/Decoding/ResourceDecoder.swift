#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// The projection: a `Decoder` that reads a parsed document's arena and input bytes directly.
//
// One `ResourceDecoder` serves a whole top-level decode. It is the `Decoder` handed to every
// `init(from:)`; what it currently looks at is `node`, which `descend` sets before calling a
// nested `init(from:)` and restores afterwards (the stack of nodes lives on the call stack).
// Containers are small structs that capture what they need when they are made: a keyed
// container over a resource holds the record index and a segment of the shared
// ``MemberTable`` with the resource's attribute members, scanned once.
//
// Nodes
// -----
// resource(r)       a resource record: `id`/`type`/`lid` from the record, other keys from
//                   `attributes`, then `relationships`, then the resource's `meta`/`links`.
// value(range)      any JSON value in the input (attribute values, `meta`, nested objects).
// relationship(i)   a relationship record: decodes as the related resource (to-one), an array
//                   of them (to-many), nil (null), or linkage-only types.
// linkage(l)        one resource identifier: resolves to its resource through the index.
// primary           the document's `data` (one, null or many resources or identifiers).
// included          the document's `included` array.
// text(range)       the raw contents of an `id` or `lid` string (numbers parse from it).
// typeName(t)       a resource's `type`, from the type table.
// document          the top-level object (for `CompoundDocument` and wrapper types).

/// What a decoder frame is looking at.
enum Node {
    case resource(UInt32)
    case value(ByteRange)
    case relationship(UInt32)
    case linkage(UInt32)
    case primary
    case included
    case text(ByteRange, escaped: Bool)
    case typeName(UInt32, offset: UInt32)
    case document
}

/// What stays the same for every decode of one document with one set of options; shared by
/// every ``Lazy`` reference made during a decode, so resolving one later decodes alike.
final class DecodingSession: Sendable {
    let storage: DocumentStorage
    /// The options the decode runs with: those given, with what
    /// ``DecodingOptions/Tolerance/lenient`` implies set.
    let options: DecodingOptions
    /// The options as given, when ``options`` differs from them (lenient or invalid options);
    /// nil otherwise, so that a strict decode's state (made once per streamed resource) copies
    /// them once.
    private let givenIfChanged: DecodingOptions?
    /// Why the options are unusable (``DecodingOptions/validate()``), if they are. Such a
    /// decode's `maximumDepth` is 0, so the first nesting fails and throws this instead.
    let invalidOptions: JSONAPIError?
    /// Whether the decode goes on past each failing value, with a stand-in, to record every
    /// problem (``JSONAPIDecoder/decodeListingProblems(_:from:)-(_,Document)``).
    let listsEveryProblem: Bool

    init(storage: DocumentStorage, options: DecodingOptions, listsEveryProblem: Bool = false) {
        self.storage = storage
        self.listsEveryProblem = listsEveryProblem
        do throws(JSONAPIError) {
            try options.validate()
            if options.tolerance == .lenient {
                var effective = options
                effective.ignoresMissingResources = true
                effective.ignoresUnhandledResourceTypes = true
                self.options = effective
                givenIfChanged = options
            } else {
                self.options = options
                givenIfChanged = nil
            }
            invalidOptions = nil
        } catch {
            var unusable = options
            unusable.maximumDepth = 0
            self.options = unusable
            givenIfChanged = options
            invalidOptions = error
        }
    }

    /// The options as given, which a document handed back from this state keeps as its
    /// ``Document/decodingOptions``.
    var given: DecodingOptions { givenIfChanged ?? options }

    /// Runs `body` with a decoder over the document's bytes: one a finished decode put back
    /// (see ``ResourceDecoder/recycle(_:)``), or a new one.
    func run<R>(_ body: (ResourceDecoder) throws -> R) rethrows -> R {
        unsafe try storage.withBytes { bytes in
            // SAFETY: the decoder reads the view only inside this scope (see `ResourceDecoder.bytes`).
            var decoder = unsafe ResourceDecoder.make(session: self, bytes: ByteView(unsafeBytes: bytes))
            defer { ResourceDecoder.recycle(&decoder) }
            return try body(decoder)
        }
    }

    /// A `DecodingSession` over an empty document, for decoders resting on the shelf.
    static let idle = unsafe DecodingSession(
        storage: DocumentStorage(
            bytes: .array([]), arena: ResourceArena(), diagnostics: [], options: ParsingOptions()),
        options: DecodingOptions())
}

/// A decoded related resource: its Swift type and record.
struct MemoKey: Hashable {
    var type: ObjectIdentifier
    var record: UInt32
}

/// A resource being decoded through relationships, for cycle detection.
struct ChainEntry {
    var record: UInt32
    /// The `depth` of the frame that entered it.
    var frame: Int
}

/// A resource left out of a result, before its JSON Pointer is computed.
struct PendingSkip {
    var linkage: UInt32
    var record: UInt32
    var reason: SkippedResource.Reason
    var path: [any CodingKey]
    var offset: Int
    /// Left out of an array, or an optional set to nil.
    var action: DecodingProblem.Action
}

/// The projection decoder. Not thread-safe: one instance per top-level decode.
///
/// `@safe`: `bytes` stays valid for the whole decode (``DecodingSession`` runs it inside the
/// storage's `withBytes` scope), and the decoder reads it only at ranges the arena recorded, which
/// lie inside it.
@safe
final class ResourceDecoder: Decoder {
    @exclusivity(unchecked) private(set) var session: DecodingSession
    @exclusivity(unchecked) private(set) var storage: DocumentStorage
    @exclusivity(unchecked) private(set) var options: DecodingOptions
    /// The document's input: a view made inside the `withBytes` scope of its storage, to which
    /// `DecodingSession.run` confines the decoder's whole use.
    @exclusivity(unchecked) private(set) var bytes: ByteView
    @exclusivity(unchecked) private(set) var resources: [ResourceRecord]
    @exclusivity(unchecked) private(set) var relationships: [RelationshipRecord]
    @exclusivity(unchecked) private(set) var linkages: [LinkageRecord]
    @exclusivity(unchecked) private(set) var topLevel: TopLevelRecord
    @exclusivity(unchecked) private(set) var types: TypeTable
    @exclusivity(unchecked) private(set) var matcher: KeyMatcher
    /// `matcher.isExact`, read once: asking the matcher copies its mode (and retains a custom
    /// strategy's closure) on every member comparison.
    @exclusivity(unchecked) private(set) var exactKeys: Bool
    let table = MemberTable()
    let resultSlot = ResultSlot()

    // The mutable state is only touched by this decoder's own thread, and never through
    // overlapping accesses; the dynamic exclusivity checks would only cost time.
    @exclusivity(unchecked) var node: Node
    /// The coding path of the node the decoder started at (a forked decoder's), then the keys of
    /// the frames entered since (see ``KeyRef``); ``path`` joins them when one is needed.
    @exclusivity(unchecked) var basePath: [any CodingKey] = []
    @exclusivity(unchecked) var keys = unsafe TrivialStack<KeyRef>()
    /// Copies of the keys that ``KeyRef`` cannot carry by value, while the `withKeyRef` calls
    /// that hold them run (innermost last).
    @exclusivity(unchecked) var heldKeys: [any CodingKey] = []
    @exclusivity(unchecked) var chain = unsafe TrivialStack<ChainEntry>()
    @exclusivity(unchecked) var depth = 0
    /// The type index the resource entered by the current frame must have (`UInt32.max`: any).
    @exclusivity(unchecked) var expectedType: UInt32 = .max
    /// The model type the current frame decodes, for messages.
    @exclusivity(unchecked) var expectedModel: (any JSONAPIResource.Type)?
    @exclusivity(unchecked) var skips: [PendingSkip] = []
    /// `options.tolerance == .lenient`, read once per decode.
    @exclusivity(unchecked) private(set) var lenient: Bool
    /// Whether this decode lists every problem (stand-ins for failing values), read once per decode.
    @exclusivity(unchecked) private(set) var listsEveryProblem: Bool
    /// `lenient || listsEveryProblem`: whether a failing optional value is caught where it is.
    @exclusivity(unchecked) private(set) var recovers: Bool
    /// Problems recorded in decode order: skips (by index) and, when lenient, recovered failures.
    @exclusivity(unchecked) var problems: [PendingProblem] = []
    @exclusivity(unchecked) var typeInfos: [TypeInfo] = []
    /// Related resources already decoded in this decode, by Swift type and record.
    @exclusivity(unchecked) var memo: [MemoKey: Any] = [:]
    @exclusivity(unchecked) var unions: [TypeInfo.Union] = []
    @exclusivity(unchecked) var typeCache = [Int](repeating: -1, count: ResourceDecoder.typeCacheSize)
    /// Set when a foreign error has been given a location, so outer frames pass it through.
    @exclusivity(unchecked) var foreignErrorLocated = false
    @exclusivity(unchecked) var scratch: [UInt8] = []
    /// The ids of linked resources, by record, once a linkage to each has been decoded (see
    /// ``linkedID(_:)``); empty until the decode has met ``unsharedLinkedIDLimit`` ids long
    /// enough to need storage of their own, then `""` for a record not seen yet.
    @exclusivity(unchecked) var linkedIDs: [String] = []
    /// Long linked ids decoded before ``linkedIDs`` was set up.
    @exclusivity(unchecked) var unsharedLinkedIDs = 0
    /// How many long linked ids one decode makes on their own before it shares them.
    static let unsharedLinkedIDLimit = 32
    @exclusivity(unchecked) var localResources: [LocalKey: UInt32]?
    /// Keyed-container boxes for reuse (see ``ContainerPool``), with a direct-mapped cache.
    @exclusivity(unchecked) var pools: [ContainerPool] = []
    @exclusivity(unchecked) var poolCache = [ContainerPool?](repeating: nil, count: ResourceDecoder.poolCacheSize)
    private var cachedUserInfo: [CodingUserInfoKey: Any]?

    init(session: DecodingSession, bytes: ByteView, node: Node = .primary) {
        unsafe self.session = session
        unsafe self.storage = session.storage
        unsafe self.options = session.options
        unsafe self.bytes = bytes
        let arena = session.storage.arena
        unsafe self.resources = arena.resources
        unsafe self.relationships = arena.relationships
        unsafe self.linkages = arena.linkages
        unsafe self.topLevel = arena.topLevel
        unsafe self.types = arena.types
        unsafe self.matcher = KeyMatcher(session.options.keyDecodingStrategy)
        unsafe self.exactKeys = matcher.isExact
        unsafe self.node = node
        unsafe self.lenient = session.options.tolerance == .lenient
        unsafe self.listsEveryProblem = session.listsEveryProblem
        unsafe self.recovers = lenient || listsEveryProblem
    }

    // SAFETY: the decoder is the only owner of its stacks and frees each once.
    deinit {
        unsafe keys.free()
        unsafe chain.free()
    }

    // MARK: Reuse between sessions

    /// A decoder on the shelf. @unchecked: a shelved decoder is referenced by the shelf alone
    /// (``recycle(_:)`` puts back only a decoder nothing else holds), so whoever takes it owns it.
    private struct Shelved: @unchecked Sendable {
        let decoder: ResourceDecoder
    }

    /// Decoders finished decodes put back, at most ``shelfCapacity`` (as many decodes as run
    /// at once, up to that). What a decoder builds up is kept: its keyed-container boxes (which
    /// point at the decoder itself), their key-name tables, its member table and stacks. For a
    /// small document that setup was a fifth of decoding it.
    private static let shelf = Locked<[Shelved]>([])
    static let shelfCapacity = 8

    /// A decoder for one decode over `bytes`: a shelved one, rebound, or a new one.
    static func make(session: DecodingSession, bytes: ByteView) -> ResourceDecoder {
        guard let decoder = shelf.withLock({ $0.popLast()?.decoder }) else {
            return ResourceDecoder(session: session, bytes: bytes)
        }
        decoder.bind(session: session, bytes: bytes)
        return decoder
    }

    /// Puts a decoder whose decode has ended on the shelf, unless anything else still holds it
    /// (a model that kept its `Decoder`, say), after dropping everything of its document.
    static func recycle(_ decoder: inout ResourceDecoder) {
        guard isKnownUniquelyReferenced(&decoder) else { return }
        // SAFETY: an empty buffer: a shelved decoder reads no document.
        decoder.bind(session: DecodingSession.idle, bytes: .empty)
        let shelved = Shelved(decoder: decoder)
        shelf.withLock { shelf in
            if shelf.count < shelfCapacity { shelf.append(shelved) }
        }
    }

    /// Points the decoder at a new decode's document and clears everything a decode left behind:
    /// all that survives is what depends only on Swift types (container pools, key names) and
    /// buffers that are emptied here.
    private func bind(session: DecodingSession, bytes: ByteView) {
        unsafe self.session = session
        unsafe storage = session.storage
        unsafe options = session.options
        unsafe self.bytes = bytes
        let arena = session.storage.arena
        unsafe resources = arena.resources
        unsafe relationships = arena.relationships
        unsafe linkages = arena.linkages
        unsafe topLevel = arena.topLevel
        unsafe types = arena.types
        unsafe matcher = KeyMatcher(session.options.keyDecodingStrategy)
        unsafe exactKeys = matcher.isExact
        unsafe lenient = session.options.tolerance == .lenient
        unsafe listsEveryProblem = session.listsEveryProblem
        unsafe recovers = lenient || listsEveryProblem
        unsafe node = .primary
        unsafe basePath = []
        unsafe keys.truncate(to: 0)
        unsafe chain.truncate(to: 0)
        unsafe depth = 0
        unsafe expectedType = .max
        unsafe expectedModel = nil
        unsafe skips.removeAll()
        unsafe problems.removeAll()
        unsafe typeInfos.removeAll(keepingCapacity: true)
        unsafe memo.removeAll()
        unsafe unions.removeAll()
        for index in unsafe typeCache.indices { unsafe typeCache[index] = -1 }
        unsafe foreignErrorLocated = false
        // A shelved decoder keeps small buffers only: one huge string must not pin its scratch.
        unsafe scratch.removeAll(keepingCapacity: scratch.capacity <= 1 << 16)
        unsafe linkedIDs.removeAll(keepingCapacity: linkedIDs.capacity <= 1 << 16)
        unsafe unsharedLinkedIDs = 0
        unsafe localResources = nil
        cachedUserInfo = nil
        table.reset()
    }

    /// A decoder for the same document positioned at `node` with `path`, for `superDecoder`
    /// and nested containers, which must outlive the current frame.
    func fork(node: Node, path: [any CodingKey]) -> ResourceDecoder {
        let decoder = unsafe ResourceDecoder(session: session, bytes: bytes, node: node)
        unsafe decoder.basePath = path
        // SAFETY: the new decoder's own stack is freed before it is replaced by a copy of this one's.
        unsafe decoder.chain.free()
        unsafe decoder.chain = chain.copy()
        unsafe decoder.depth = depth
        return decoder
    }

    // MARK: Decoder

    var codingPath: [any CodingKey] { path }

    /// The current coding path, with every key copied out of the key stack.
    var path: [any CodingKey] {
        var result = unsafe basePath
        unsafe result.reserveCapacity(basePath.count &+ keys.count)
        for index in unsafe 0..<keys.count {
            if let key = unsafe keys[index].key(in: self) { result.append(key) }
        }
        return result
    }

    /// `path.count`, without building the path.
    @inline(__always)
    var pathCount: Int { unsafe basePath.count &+ keys.count }

    var userInfo: [CodingUserInfoKey: Any] {
        if let cachedUserInfo { return cachedUserInfo }
        var info: [CodingUserInfoKey: Any] = [:]
        for (key, value) in unsafe options.userInfo { info[key] = value }
        cachedUserInfo = info
        return info
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch unsafe node {
        case .value(let range):
            guard firstByte(range) == UInt8(ascii: "{") else {
                throw typeMismatch(Key.self, expected: "an object", found: range, path: path)
            }
            let segment = unsafe table.scan(bytes, object: range)
            return keyedContainer(Key.self, .object, record: 0, object: range, segment: segment)
        case .document:
            return unsafe KeyedDecodingContainer(
                DocumentContainer<Key>(unmanaged: .passUnretained(self), depth: pathCount))
        case .resource, .relationship, .linkage, .primary:
            let record = unsafe try singleResource(of: node, for: expectedModel ?? Key.self)
            try enter(record)
            let segment = unsafe table.scan(bytes, object: resources[Int(record)].attributes)
            return keyedContainer(Key.self, .resource, record: record, object: .absent, segment: segment)
        case .included:
            throw unsafe typeMismatch(
                Key.self, at: offset(of: node), expected: "an object", found: "the `included` array", path: path)
        case .text, .typeName:
            throw unsafe typeMismatch(
                Key.self, at: offset(of: node), expected: "an object", found: "a string", path: path)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch unsafe node {
        case .value(let range):
            guard firstByte(range) == UInt8(ascii: "[") else {
                throw typeMismatch([Any].self, expected: "an array", found: range, path: path)
            }
            return ArrayContainer(decoder: self, array: range, depth: pathCount)
        default:
            let list = unsafe try elements(of: node, for: [Any].self)
            return ListContainer(decoder: self, list: list, depth: pathCount)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        unsafe SingleValueContainer(unmanaged: .passUnretained(self), depth: pathCount)
    }

    // MARK: Frames

    /// What a frame changes, to be put back when it ends.
    struct Frame {
        var node: Node
        var top: Int
        var chain: Int
        var expected: UInt32
        var model: (any JSONAPIResource.Type)?
        var pushedKey: Bool
    }

    /// Makes `node` current (and `key` the last coding key) for a nested `init(from:)`.
    ///
    /// No closure and nothing generic: the hot path (`unboxComposite`) calls this and ``pop(_:)``
    /// around `T(from:)` directly, so no metadata has to be instantiated per call.
    @inline(__always)
    func push(_ node: Node, key: KeyRef, expected: UInt32, model: (any JSONAPIResource.Type)?) throws
        -> Frame
    {
        let frame = unsafe Frame(
            node: self.node, top: table.top, chain: chain.count, expected: expectedType, model: expectedModel,
            pushedKey: !key.isNone)
        if unsafe depth >= options.maximumDepth { throw tooDeep(node, key: key) }
        unsafe depth &+= 1
        if !key.isNone { unsafe keys.push(key) }
        unsafe self.node = node
        unsafe expectedType = expected
        unsafe expectedModel = model
        unsafe foreignErrorLocated = false
        return frame
    }

    /// The error for nesting past ``DecodingOptions/maximumDepth`` (or for options that failed
    /// ``DecodingOptions/validate()``, whose decode allows no nesting at all).
    @inline(never)
    func tooDeep(_ node: Node, key: KeyRef) -> any Error {
        if let invalid = unsafe session.invalidOptions { return invalid }
        return failure(
            .dataCorrupted, at: offset(of: node), code: .decodingFailed, path: self.path(key),
            unsafe "values are nested deeper than DecodingOptions.maximumDepth (\(options.maximumDepth))")
    }

    /// Ends a frame begun by ``push(_:key:expected:model:)``.
    @inline(__always)
    func pop(_ frame: Frame) {
        unsafe node = frame.node
        table.top = frame.top
        unsafe chain.truncate(to: frame.chain)
        unsafe expectedType = frame.expected
        unsafe expectedModel = frame.model
        unsafe depth &-= 1
        if frame.pushedKey { unsafe keys.pop() }
    }

    /// Decodes a nested value: ``push(_:key:expected:model:)``, `body`, ``pop(_:)``, locating
    /// any error that escapes without a location. For the paths that are not hot.
    func descend<T>(
        into node: Node, key: KeyRef, expected: UInt32 = .max, model: (any JSONAPIResource.Type)? = nil,
        _ body: () throws -> T
    ) throws -> T {
        let frame = try push(node, key: key, expected: expected, model: model)
        defer { pop(frame) }
        do {
            return try body()
        } catch {
            throw locate(error, node: node)
        }
    }

    /// Starts decoding resource `record` in the current frame: checks its type against what the
    /// frame expects, and the chain of resources being decoded for cycles and depth.
    @inline(__always)
    func enter(_ record: UInt32) throws {
        if let last = unsafe chain.last, unsafe last.frame == depth, last.record == record { return }
        if unsafe expectedType != .max && resources[Int(record)].type != expectedType {
            throw wrongType(record: record)
        }
        if unsafe !chain.isEmpty {
            for index in unsafe 0..<chain.count where unsafe chain[index].record == record {
                throw cycle(at: record)
            }
            if unsafe chain.count >= options.maximumRelationshipDepth {
                throw unsafe failure(
                    .dataCorrupted, at: Int(resources[Int(record)].object.start), code: .decodingFailed, path: path,
                    unsafe "relationships are nested deeper than DecodingOptions.maximumRelationshipDepth (\(options.maximumRelationshipDepth)): \(chainDescription(appending: record)); use Lazy<Model> or Identifier<Model> to stop eager decoding"
                )
            }
        }
        unsafe chain.push(ChainEntry(record: record, frame: depth))
    }

    // MARK: Unboxing

    /// Decodes a `T` from `node`, with `key` as the last coding key.
    @inline(__always)
    func unbox<T: Decodable>(_ type: T.Type, _ node: Node, key: KeyRef) throws -> T {
        do {
            if T.self == String.self { return sameType(try String.read(self, node: node, key: key), as: T.self) }
            return try unboxComposite(type, node, key: key)
        } catch {
            return try standIn(T.self, after: error, at: node)
        }
    }

    /// Everything but strings.
    func unboxComposite<T: Decodable>(_ type: T.Type, _ node: Node, key: KeyRef) throws -> T {
        let info = typeInfo(T.self)
        switch info.kind {
        case .plain:
            break
        case .scalar(let scalar):
            return try scalar.read(self, node: node, key: key, as: T.self)
        case .direct(let direct):
            return try direct.decodeDirect(from: self, node, key: key, as: T.self)
        case .date:
            return sameType(try decodeDate(node, key: key), as: T.self)
        case .data:
            return sameType(try decodeData(node, key: key), as: T.self)
        case .url:
            return sameType(try decodeURL(node, key: key), as: T.self)
        case .decimal:
            return sameType(try decodeDecimal(node, key: key), as: T.self)
        case .uuid:
            return sameType(try decodeUUID(node, key: key), as: T.self)
        case .array(let marker):
            let frame = try push(node, key: key, expected: .max, model: nil)
            defer { pop(frame) }
            do {
                return try marker.decodeArray(from: self, node, as: T.self)
            } catch {
                throw locate(error, node: node)
            }
        case .optional(let marker):
            return try marker.decodeOptional(from: self, node, key: key, as: T.self)
        case .dictionary(let marker):
            if case .value = node {
                let frame = try push(node, key: key, expected: .max, model: nil)
                defer { pop(frame) }
                do {
                    return try marker.decodeDictionary(from: self, node, as: T.self)
                } catch {
                    throw locate(error, node: node)
                }
            }
        }
        if case .text(let range, let escaped) = node, let lossless = info.lossless {
            return try decodeLossless(lossless, range, escaped: escaped, key: key, as: T.self)
        }
        if info.resourceType != .max || info.unionIndex >= 0, let record = relatedRecord(node) {
            return try decodeRelated(T.self, node, record: record, key: key, info: info)
        }
        let frame = try push(node, key: key, expected: info.resourceType, model: info.model)
        defer { pop(frame) }
        do {
            return try construct(T.self, info)
        } catch {
            throw locate(naming(T.self, inNullError: error, node: node), node: node)
        }
    }

    /// A `null` that `T`'s `init(from:)` asked a container of is reported as a `T` not found:
    /// the container knows only its coding keys (`valueNotFound(CodingKeys.self)` would say
    /// "Expected value of type CodingKeys"), the type that wanted the value is `T`.
    @inline(never)
    func naming<T>(_ type: T.Type, inNullError error: any Error, node: Node) -> any Error {
        guard case .value(let range) = node, firstByte(range) == UInt8(ascii: "n"),
            case .valueNotFound(_, let context)? = error as? DecodingError, context.codingPath.count == pathCount
        else { return error }
        return DecodingError.valueNotFound(T.self, context)
    }

    /// Makes a `T` from the current node: through its reader initializer when it is
    /// ``ResourceReadable`` and the node is a resource or a JSON value, else through
    /// `init(from:)` (the document itself reads as its top-level members, as a keyed container
    /// gives them).
    @inline(__always)
    func construct<T: Decodable>(_ type: T.Type, _ info: TypeInfo) throws -> T {
        if let readable = info.readable, unsafe node.isReadable {
            return try resultSlot.read(T.self, through: readable, from: self)
        }
        return try T(from: self)
    }

    /// The resource a relationship or linkage node resolves to, if it resolves.
    @inline(__always)
    func relatedRecord(_ node: Node) -> UInt32? {
        switch node {
        case .linkage(let index):
            return target(of: index)
        case .relationship(let index):
            let relationship = unsafe relationships[Int(index)]
            guard relationship.data == .one, relationship.linkageCount > 0 else { return nil }
            return target(of: relationship.firstLinkage)
        default:
            return nil
        }
    }

    /// Decodes a related resource once per decode and type: in a compound document the same
    /// resource (an author, a tag) is usually reached through many relationships, and every
    /// decode of it as the same type gives the same value.
    func decodeRelated<T: Decodable>(
        _ type: T.Type, _ node: Node, record: UInt32, key: KeyRef, info: TypeInfo
    ) throws -> T {
        let memoKey = MemoKey(type: info.id, record: record)
        if let cached = unsafe memo[memoKey] {
            do {
                return try Self.memoized(cached, as: T.self)
            } catch {
                // Not a `T` (the key names the type, so never): decoded anew below.
            }
        }
        // Checked here, at the linkage, so the error points where the problem is; a value in
        // the memo passed this check when it was made.
        if info.resourceType != .max, unsafe resources[Int(record)].type != info.resourceType {
            throw wrongLinkageType(node, record: record, info: info, key: key)
        }
        let frame = try push(node, key: key, expected: info.resourceType, model: info.model)
        defer { pop(frame) }
        let value: T
        do {
            value = try construct(T.self, info)
        } catch {
            throw locate(error, node: node)
        }
        unsafe memo[memoKey] = value
        return value
    }

    /// A memoized related resource as the `T` its key says it is. The `Any` is opened to its
    /// dynamic type `V` and compared with `T`: a cast (`as? T`) needs `Optional<T>`'s metadata,
    /// a runtime look-up on every hit.
    static func memoized<V, T>(_ value: V, as type: T.Type) throws -> T {
        guard V.self == T.self else { throw MemoMismatch() }
        return sameType(value, as: T.self)
    }

    /// A memoized value of another type than its key names.
    struct MemoMismatch: Error {}

    @inline(never)
    func decodeLossless<T>(
        _ lossless: any LosslessStringConvertible.Type, _ range: ByteRange, escaped: Bool, key: KeyRef,
        as type: T.Type
    ) throws -> T {
        let text = string(range, escaped: escaped)
        guard let value = lossless.init(text), let typed = value as? T else {
            throw failure(
                .dataCorrupted, at: Int(range.start) &- 1, code: .typeMismatch, path: path(key),
                "\"\(text)\" is not a valid \(T.self)")
        }
        return typed
    }

    /// Decodes an optional `W`: nil for null, absent linkage, a missing related resource
    /// (recorded as skipped), or (when allowed) a resource type a union does not handle.
    func decodeOptional<W: Decodable>(_ type: W.Type, _ node: Node, key: KeyRef) throws -> W? {
        switch node {
        case .value(let range):
            if firstByte(range) == UInt8(ascii: "n") { return nil }
        case .relationship(let index):
            if typeInfo(W.self).readsRelationshipObject { break }
            let relationship = unsafe relationships[Int(index)]
            switch relationship.data {
            case .absent, .null: return nil
            case .one:
                guard relationship.linkageCount > 0 else { return nil }
                if try !linkageUsable(relationship.firstLinkage, for: W.self, key: key) { return nil }
            case .many: break
            }
        case .linkage(let index):
            if try !linkageUsable(index, for: W.self, key: key) { return nil }
        case .primary:
            switch unsafe topLevel.data {
            case .absent, .null: return nil
            case .one:
                guard unsafe topLevel.primaryCount > 0 else { return nil }
                if unsafe topLevel.primaryIsLinkage {
                    if unsafe try !linkageUsable(topLevel.primaryStart, for: W.self, key: key) { return nil }
                } else if unsafe try !resourceUsable(topLevel.primaryStart, for: W.self, key: key) {
                    return nil
                }
            case .many: break
            }
        case .resource(let record):
            if try !resourceUsable(record, for: W.self, key: key) { return nil }
        default:
            break
        }
        guard unsafe lenient else { return try unbox(W.self, node, key: key) }
        let mark = recoveryMark
        do {
            return try unbox(W.self, node, key: key)
        } catch {
            if recover(error, since: mark, node: node, key: key, action: .setToNil) { return nil }
            throw error
        }
    }

    /// Whether linkage `index` can be decoded as a `W`; records a skip and returns false when it
    /// names a missing resource (and `W` needs it) or, if allowed, a type a union does not handle.
    func linkageUsable<W>(_ index: UInt32, for type: W.Type, key: KeyRef) throws -> Bool {
        let info = typeInfo(W.self)
        if let union = union(info), unsafe !union.handles(linkages[Int(index)].type) {
            // A type the union does not know: skip it if allowed, else let decoding report it.
            guard unsafe options.ignoresUnhandledResourceTypes else { return true }
            skip(linkage: index, record: .max, .unhandledType(union: union.name), key: key, action: .setToNil)
            return false
        }
        if info.needsTarget && target(of: index) == nil {
            skip(linkage: index, record: .max, .missing, key: key, action: .setToNil)
            return false
        }
        return true
    }

    func resourceUsable<W>(_ record: UInt32, for type: W.Type, key: KeyRef) throws -> Bool {
        guard unsafe options.ignoresUnhandledResourceTypes, let union = union(typeInfo(W.self)) else { return true }
        if unsafe union.handles(resources[Int(record)].type) { return true }
        skip(linkage: .max, record: record, .unhandledType(union: union.name), key: key, action: .setToNil)
        return false
    }

    func skip(
        linkage: UInt32, record: UInt32, _ reason: SkippedResource.Reason, key: KeyRef, action: DecodingProblem.Action
    ) {
        var fullPath = path
        if let key = key.key(in: self) { fullPath.append(key) }
        let offset =
            unsafe linkage != .max ? Int(linkages[Int(linkage)].object.start) : Int(resources[Int(record)].object.start)
        unsafe problems.append(
            PendingProblem(
                kind: .missingResource, action: action, skip: skips.count, resource: nil, path: [], message: "",
                place: nil, offset: offset))
        unsafe skips.append(
            PendingSkip(
                linkage: linkage, record: record, reason: reason, path: fullPath, offset: offset, action: action))
    }

    // MARK: Resolution

    /// The key of a `data` member that is absent (a relationship's, the document's): such an
    /// error is `keyNotFound`, not `valueNotFound`, which says a `null` was found.
    static var dataKey: AnyCodingKey { AnyCodingKey(stringValue: "data") }

    /// The resource a node stands for when a single resource is wanted.
    ///
    /// - Throws: `valueNotFound(type)` for a `null` one, `keyNotFound` (key `data`) when the
    ///   relationship or document has no `data`.
    func singleResource(of node: Node, for type: Any.Type) throws -> UInt32 {
        switch node {
        case .resource(let record):
            return record
        case .linkage(let index):
            guard let record = target(of: index) else { throw missingResource(index) }
            return record
        case .relationship(let index):
            let relationship = unsafe relationships[Int(index)]
            switch relationship.data {
            case .one where relationship.linkageCount > 0:
                let link = relationship.firstLinkage
                guard let record = target(of: link) else { throw missingResource(link) }
                return record
            case .one, .null:
                throw failure(
                    .valueNotFound(type), at: relationshipOffset(index), code: .decodingFailed, path: path,
                    "relationship `\(relationshipName(index))` is null; declare the property optional to accept an empty to-one relationship"
                )
            case .absent:
                throw failure(
                    .keyNotFound(Self.dataKey), at: relationshipOffset(index), code: .decodingFailed, path: path,
                    "relationship `\(relationshipName(index))` has no `data` (only links or meta); declare the property optional, or read it as Related<…>"
                )
            case .many:
                throw typeMismatch(
                    type, at: relationshipOffset(index), expected: "a to-one relationship",
                    found: "a to-many relationship (an array)", path: path)
            }
        case .primary:
            let top = unsafe topLevel
            switch top.data {
            case .one where top.primaryCount > 0:
                if top.primaryIsLinkage {
                    guard let record = target(of: top.primaryStart) else { throw missingResource(top.primaryStart) }
                    return record
                }
                return top.primaryStart
            case .one, .null:
                throw failure(
                    .valueNotFound(type), at: Int(top.dataRange.start), code: .decodingFailed, path: path,
                    "primary data is null; decode an optional to accept an empty document")
            case .absent:
                throw failure(
                    .keyNotFound(Self.dataKey), at: max(0, Int(top.object.start)), code: .decodingFailed, path: path,
                    "the document has no primary data (`data` member)")
            case .many:
                throw typeMismatch(
                    type, at: Int(top.dataRange.start), expected: "a single resource", found: "an array of resources",
                    path: path)
            }
        default:
            throw typeMismatch(type, at: offset(of: node), expected: "a resource", found: describe(node), path: path)
        }
    }

    /// The resource linkage `index` names, or nil when the document does not contain it.
    /// Identifiers with only a 1.1 `lid` are matched against resources with the same type and `lid`.
    func target(of index: UInt32) -> UInt32? {
        let link = unsafe linkages[Int(index)]
        if link.target != .max { return link.target }
        guard link.id.isAbsent, link.flags.contains(.hasLid), link.type != .max else { return nil }
        let localID = unsafe storage.arena.lid(ofLinkage: Int(index))
        let key = LocalKey(type: link.type, lid: string(localID, escaped: link.flags.contains(.lidHasEscapes)))
        return localIndex()[key]
    }

    /// (type, `lid`) → resource, built the first time a linkage has only a `lid`.
    func localIndex() -> [LocalKey: UInt32] {
        if let localResources = unsafe localResources { return localResources }
        var index: [LocalKey: UInt32] = [:]
        let lids = unsafe storage.arena.resourceLids
        for entry in lids.entries {
            let record = unsafe resources[Int(entry.record)]
            guard record.type != .max else { continue }
            let key = LocalKey(
                type: record.type, lid: string(entry.range, escaped: record.flags.contains(.lidHasEscapes)))
            if index[key] == nil { index[key] = entry.record }
        }
        unsafe localResources = index
        return index
    }

    struct LocalKey: Hashable {
        var type: UInt32
        var lid: String
    }

    /// The elements of a resource list or to-many relationship.
    enum ElementList {
        case resources(first: UInt32, count: UInt32)
        case linkages(first: UInt32, count: UInt32)

        var count: Int {
            switch self {
            case .resources(_, let count), .linkages(_, let count): Int(count)
            }
        }

        func node(_ position: Int) -> Node {
            switch self {
            case .resources(let first, _): .resource(first &+ UInt32(position))
            case .linkages(let first, _): .linkage(first &+ UInt32(position))
            }
        }
    }

    /// The element list of `node`; `type` (for error messages only) is evaluated only on error,
    /// as naming `[E]` in generic code costs a metadata lookup.
    func elements(of node: Node, for type: @autoclosure () -> Any.Type) throws -> ElementList {
        switch node {
        case .relationship(let index):
            let relationship = unsafe relationships[Int(index)]
            switch relationship.data {
            case .many:
                return .linkages(first: relationship.firstLinkage, count: relationship.linkageCount)
            case .absent:
                throw failure(
                    .keyNotFound(Self.dataKey), at: relationshipOffset(index), code: .decodingFailed, path: path,
                    "relationship `\(relationshipName(index))` has no `data` (only links or meta); declare the property optional"
                )
            case .one, .null:
                throw typeMismatch(
                    type(), at: relationshipOffset(index), expected: "a to-many relationship (an array)",
                    found: relationship.data == .null ? "a null to-one relationship" : "a to-one relationship",
                    path: path)
            }
        case .primary:
            let top = unsafe topLevel
            switch top.data {
            case .many:
                return top.primaryIsLinkage
                    ? .linkages(first: top.primaryStart, count: top.primaryCount)
                    : .resources(first: top.primaryStart, count: top.primaryCount)
            case .absent:
                throw failure(
                    .keyNotFound(Self.dataKey), at: max(0, Int(top.object.start)), code: .decodingFailed, path: path,
                    "the document has no primary data (`data` member)")
            case .one, .null:
                throw typeMismatch(
                    type(), at: Int(top.dataRange.start), expected: "an array of resources",
                    found: top.data == .null ? "null" : "a single resource", path: path)
            }
        case .included:
            return unsafe .resources(first: topLevel.includedStart, count: topLevel.includedCount)
        default:
            throw typeMismatch(type(), at: offset(of: node), expected: "an array", found: describe(node), path: path)
        }
    }

    /// Decodes every element of an array-like node (JSON array, to-many relationship, primary
    /// data, `included`), leaving out (and recording) what the options say to skip.
    ///
    /// Through `init(from:)` the array is built here, in generic code; a ``ResourceReader`` builds
    /// it through ``appendElements(_:_:into:reserve:append:)`` with functions compiled where `E`
    /// is known.
    func decodeElements<E: Decodable>(_ type: E.Type, _ node: Node) throws -> [E] {
        if E.self == String.self, case .value(let range) = node {
            // Built as `[String]`, so reserving and appending are specialized, not generic calls.
            var strings: [String] = []
            try appendJSONArray(
                String.self, range, into: &strings, reserve: { array, count in array.reserveCapacity(count) },
                append: { array, element in array.append(element) })
            return sameType(strings, as: [E].self)
        }
        // Written into the array's storage (see ``ArrayFiller``), sized by a count taken first:
        // `appendElements` reserves that count and appends at most as many.
        var overflowed = false
        let result = try ArrayFiller<E>.array(capacity: elementCapacity(of: node)) { filler in
            try appendElements(
                E.self, node, into: &filler, reserve: { _, _ in }, append: { filler, element in filler.append(element) }
            )
            overflowed = filler.overflowed
        }
        if overflowed {
            throw failure(
                .dataCorrupted, at: offset(of: node), code: .decodingFailed, path: path,
                "the array has more elements than were counted")
        }
        return result
    }

    /// How many elements ``appendElements(_:_:into:reserve:append:)`` can append for `node`:
    /// the JSON array's elements or the list's resources; 0 for anything else (which
    /// `appendElements` then reports).
    func elementCapacity(of node: Node) -> Int {
        if case .value(let range) = node {
            guard firstByte(range) == UInt8(ascii: "[") else { return 0 }
            var counter = ArrayCursor(range)
            var count = 0
            while unsafe counter.next(bytes) != nil { count &+= 1 }
            return count
        }
        return (try? elements(of: node, for: Any.self).count) ?? 0
    }

    /// ``decodeElements(_:_:)`` into `result`, through `reserve` (once the element count is
    /// known) and `append`.
    ///
    /// In generic code, allocating an array's storage and appending to it both look the array's
    /// metadata up in the runtime's table, on every allocation and every append; a
    /// ``ResourceReader`` passes functions compiled where `E` is known, which cost an indirect
    /// call.
    func appendElements<E: Decodable, Result>(
        _ type: E.Type, _ node: Node, into result: inout Result, reserve: (inout Result, Int) -> Void,
        append: (inout Result, E) -> Void
    ) throws {
        if case .value(let range) = node {
            try appendJSONArray(E.self, range, into: &result, reserve: reserve, append: append)
            return
        }
        let list = try elements(of: node, for: [E].self)
        let info = typeInfo(E.self)
        if case .linkages(let first, let count) = list, let linkageArray = info.linkageArray, info.unionIndex < 0,
            !info.needsTarget, unsafe !recovers
        {
            reserve(&result, Int(count))
            try linkageArray.appendLinkages(
                from: self, first: first, count: Int(count), into: &result, append: append)
            return
        }
        reserve(&result, list.count)
        switch list {
        case .linkages(let first, let count):
            for position in 0..<Int(count) {
                let index = first &+ UInt32(position)
                let link = unsafe linkages[Int(index)]
                if let union = union(info), !union.handles(link.type) {
                    // Skipped if allowed; otherwise decoding it reports the unhandled type.
                    if unsafe options.ignoresUnhandledResourceTypes {
                        skip(
                            linkage: index, record: .max, .unhandledType(union: union.name), key: .index(position),
                            action: .leftOut)
                        continue
                    }
                } else if info.needsTarget && target(of: index) == nil {
                    if unsafe options.ignoresMissingResources {
                        skip(linkage: index, record: .max, .missing, key: .index(position), action: .leftOut)
                        continue
                    }
                    throw adding(.index(position), to: missingResource(index))
                }
                if unsafe recovers {
                    try appendRecoverableElement(
                        E.self, .linkage(index), info: info, position: position, into: &result, append: append)
                } else if case .direct(let direct) = info.kind {
                    append(
                        &result, try direct.decodeDirect(from: self, .linkage(index), key: .index(position), as: E.self)
                    )
                } else {
                    append(&result, try unbox(E.self, .linkage(index), key: .index(position)))
                }
            }
        case .resources(let first, let count):
            for position in 0..<Int(count) {
                let record = first &+ UInt32(position)
                if unsafe options.ignoresUnhandledResourceTypes, let union = union(info),
                    unsafe !union.handles(resources[Int(record)].type)
                {
                    skip(
                        linkage: .max, record: record, .unhandledType(union: union.name), key: .index(position),
                        action: .leftOut)
                    continue
                }
                if unsafe lenient {
                    try appendRecoverableElement(
                        E.self, .resource(record), info: info, position: position, into: &result, append: append)
                } else {
                    append(&result, try unbox(E.self, .resource(record), key: .index(position)))
                }
            }
        }
    }

    /// Appends element `position` of a list of resources in a lenient decode, or leaves it out
    /// (and records a problem) when it cannot be decoded. In a decode listing every problem, the
    /// element goes through `unbox`, which records it and gives a stand-in.
    ///
    /// It appends rather than returning an `E?`: an optional of a generic type in the caller
    /// made every list's decode look up `Optional<E>`'s metadata, lenient or not.
    @inline(never)
    func appendRecoverableElement<E: Decodable, Result>(
        _ type: E.Type, _ node: Node, info: TypeInfo, position: Int, into result: inout Result,
        append: (inout Result, E) -> Void
    ) throws {
        let mark = recoveryMark
        do {
            if case .direct(let direct) = info.kind, unsafe !listsEveryProblem {
                append(&result, try direct.decodeDirect(from: self, node, key: .index(position), as: E.self))
            } else {
                append(&result, try unbox(E.self, node, key: .index(position)))
            }
        } catch {
            if recover(error, since: mark, node: node, key: .index(position), action: .leftOut) { return }
            throw error
        }
    }

    /// The elements of the JSON array at `range`, into `result` (sized first).
    func appendJSONArray<E: Decodable, Result>(
        _ type: E.Type, _ range: ByteRange, into result: inout Result, reserve: (inout Result, Int) -> Void,
        append: (inout Result, E) -> Void
    ) throws {
        guard firstByte(range) == UInt8(ascii: "[") else {
            throw typeMismatch([E].self, expected: "an array", found: range, path: path)
        }
        var counter = ArrayCursor(range)
        var count = 0
        while unsafe counter.next(bytes) != nil { count &+= 1 }
        reserve(&result, count)
        var position = 0
        var cursor = ArrayCursor(range)
        while let element = unsafe cursor.next(bytes) {
            if E.self == String.self {
                do {
                    append(&result, sameType(try readString(element, escaped: nil, key: .index(position)), as: E.self))
                } catch {
                    append(&result, try standIn(E.self, after: error, at: .value(element)))
                }
            } else {
                append(&result, try unbox(E.self, .value(element), key: .index(position)))
            }
            position &+= 1
        }
    }

    func decodeStringDictionary<V: Decodable>(_ type: V.Type, _ node: Node) throws -> [String: V] {
        guard case .value(let range) = node, firstByte(range) == UInt8(ascii: "{") else {
            throw typeMismatch(
                [String: V].self, at: offset(of: node), expected: "an object", found: describe(node), path: path)
        }
        let segment = unsafe table.scan(bytes, object: range)
        var result: [String: V] = [:]
        result.reserveCapacity(segment.count)
        for position in 0..<segment.count {
            let member = table.member(segment, position)
            let name = string(member.key, escaped: member.flags & MemberEntry.keyEscaped != 0)
            result[name] = try withKeyRef(AnyCodingKey(stringValue: name)) { key in
                try unbox(V.self, .value(member.value), key: key)
            }
        }
        return result
    }

    // MARK: Type information

    /// What the decoder needs to know about a Swift type: its ``TypeTraits`` (kept process-wide)
    /// and what they mean in this document (type indices), worked out once per decoder.
    struct TypeInfo {
        enum Kind {
            case plain, date, data, url, decimal, uuid
            case scalar(any ScalarDecodable.Type)
            case direct(any DirectDecodable.Type)
            case array(any DecodableArrayMarker.Type)
            case optional(any DecodableOptionalMarker.Type)
            case dictionary(any DecodableDictionaryMarker.Type)
        }

        struct Union {
            var name: String
            /// The type index of each member, in declaration order (`UInt32.max` when the
            /// document has no resource of that type).
            var members: [UInt32]
            var memberNames: [String]

            func handles(_ type: UInt32) -> Bool { members.contains(type) }
        }

        var id: ObjectIdentifier
        var kind: Kind
        var model: (any JSONAPIResource.Type)?
        var lossless: (any LosslessStringConvertible.Type)?
        /// The document's type index a `JSONAPIResource` must have (`UInt32.max` for others;
        /// `UInt32.max - 1` when the document has no resource of that type).
        var resourceType: UInt32
        /// False for types that decode from linkage alone (identifiers).
        var needsTarget: Bool
        /// True for types that decode a whole relationship object (``Related``, views).
        var readsRelationshipObject: Bool
        /// Index into `unions`, or -1.
        var unionIndex: Int
        /// How to decode an array of this type from linkage in one go (``Identifier``).
        var linkageArray: (any LinkageArrayDecodable.Type)?
        /// The reader initializer of a ``ResourceReadable`` type, used instead of `init(from:)`.
        var readable: (any ResourceReadable.Type)?
    }

    /// The type information of `T`. `TypeInfo` holds no references, so finding and returning it
    /// copies a few words and retains nothing.
    @inline(__always)
    func typeInfo<T>(_ type: T.Type) -> TypeInfo {
        let id = ObjectIdentifier(T.self)
        // A direct-mapped cache in front of the list: metadata addresses are 16-byte aligned.
        let slot =
            Int(truncatingIfNeeded: UInt(bitPattern: id) &>> 4)
            & (Self.typeCacheSize &- 1)
        let cached = unsafe typeCache[slot]
        if unsafe cached >= 0 && typeInfos[cached].id == id { return unsafe typeInfos[cached] }
        var index = 0
        let count = unsafe typeInfos.count
        while index < count {
            if unsafe typeInfos[index].id == id {
                unsafe typeCache[slot] = index
                return unsafe typeInfos[index]
            }
            index &+= 1
        }
        return makeTypeInfo(T.self)
    }

    static let typeCacheSize = 64

    /// The union information of a type, if it is a ``ResourceUnion`` (or a ``Lazy`` of one).
    @inline(__always)
    func union(_ info: TypeInfo) -> TypeInfo.Union? {
        unsafe info.unionIndex >= 0 ? unions[info.unionIndex] : nil
    }

    @inline(never)
    func makeTypeInfo<T>(_ type: T.Type) -> TypeInfo {
        let traits = TypeTraits.of(T.self)
        var resourceType = UInt32.max
        if let model = traits.model {
            resourceType = unsafe types.index(of: model.resourceType) ?? (.max - 1)
        }
        var unionIndex = -1
        if let union = traits.union {
            unionIndex = unsafe unions.count
            unsafe unions.append(
                TypeInfo.Union(
                    name: union.name, members: union.memberNames.map { unsafe types.index(of: $0) ?? .max },
                    memberNames: union.memberNames))
        }
        let info = unsafe TypeInfo(
            id: ObjectIdentifier(T.self), kind: traits.kind, model: traits.model, lossless: traits.lossless,
            resourceType: resourceType, needsTarget: traits.needsTarget,
            readsRelationshipObject: traits.readsRelationshipObject, unionIndex: unionIndex,
            linkageArray: traits.linkageArray, readable: options.usesResourceReaders ? traits.readable : nil)
        if unsafe typeInfos.count < 256 { unsafe typeInfos.append(info) }
        return info
    }

    // MARK: Small readers

    @inline(__always)
    func firstByte(_ range: ByteRange) -> UInt8 {
        let start = Int(range.start)
        return unsafe range.isPresent && start < bytes.count ? bytes[start] : 0
    }

    func string(_ range: ByteRange, escaped: Bool) -> String {
        unsafe bytes.subview(range).withUnsafeBytes { text in
            unsafe JSONStringDecoding.decode(validUTF8: text, hasEscapes: escaped)
        }
    }

    /// The `id` of a linkage as a `String`, one `String` per linked resource.
    ///
    /// Every linkage that names the same resource has the same id, and a document links the same
    /// few resources (authors, tags) from thousands of places. A `String` of more than 15 UTF-8
    /// bytes has storage of its own, so decoding each of those ids afresh costs an allocation, a
    /// copy and, later, a free per linkage. Here the first linkage to a resource decodes its id
    /// and later ones share that `String` (a retain); a value of `String` cannot tell the
    /// difference. Short ids are stored inline anyway, and a linkage whose resource is not in the
    /// document (no target) is decoded as it is. So are the first
    /// ``unsharedLinkedIDLimit`` long ids of a decode, before the table is worth setting up.
    @inline(__always)
    func linkedID(_ link: LinkageRecord) -> String {
        let escaped = link.flags.contains(.idHasEscapes)
        guard link.id.end &- link.id.start > 15, link.target != .max else { return string(link.id, escaped: escaped) }
        return sharedLinkedID(link.id, escaped: escaped, target: Int(link.target))
    }

    /// ``linkedID(_:)`` for an id with storage of its own: the target's shared `String`.
    ///
    /// The linkage resolved to `target` by comparing decoded ids (see
    /// `DocumentBuilder.finish`), so every linkage with this target has an equal id, and the
    /// target's own id is equal too.
    @inline(never)
    private func sharedLinkedID(_ range: ByteRange, escaped: Bool, target: Int) -> String {
        if unsafe linkedIDs.isEmpty {
            // A decode that reads a few resources of a large document (one by its id, say)
            // should not pay for a table of all of them.
            guard unsafe unsharedLinkedIDs >= Self.unsharedLinkedIDLimit else {
                unsafe unsharedLinkedIDs &+= 1
                return string(range, escaped: escaped)
            }
            unsafe linkedIDs.append(contentsOf: repeatElement("", count: resources.count))
        }
        guard unsafe target < linkedIDs.count else { return string(range, escaped: escaped) }
        let known = unsafe linkedIDs[target]
        if !known.isEmpty { return known }
        let made = string(range, escaped: escaped)
        unsafe linkedIDs[target] = made
        return made
    }

    func relationshipName(_ index: UInt32) -> String {
        let relationship = unsafe relationships[Int(index)]
        return string(relationship.name, escaped: relationship.flags.contains(.nameHasEscapes))
    }

    /// `type/id` of a resource, for messages.
    func identity(record: UInt32) -> String {
        let r = unsafe resources[Int(record)]
        let id =
            unsafe r.id.isPresent
            ? string(r.id, escaped: r.flags.contains(.idHasEscapes))
            : (r.flags.contains(.hasLid)
                ? "lid:" + string(storage.arena.lid(ofResource: Int(record)), escaped: r.flags.contains(.lidHasEscapes))
                : "?")
        return unsafe "\(types.name(r.type))/\(id)"
    }

    /// `type/id` of a linkage, for messages.
    func identity(linkage: UInt32) -> String {
        let l = unsafe linkages[Int(linkage)]
        let id =
            unsafe l.id.isPresent
            ? string(l.id, escaped: l.flags.contains(.idHasEscapes))
            : (l.flags.contains(.hasLid)
                ? "lid:" + string(storage.arena.lid(ofLinkage: Int(linkage)), escaped: l.flags.contains(.lidHasEscapes))
                : "?")
        return unsafe "\(types.name(l.type))/\(id)"
    }

    func resourceIdentifier(record: UInt32) -> ResourceIdentifier {
        let r = unsafe resources[Int(record)]
        return unsafe ResourceIdentifier(
            type: types.name(r.type), id: r.id.isPresent ? string(r.id, escaped: r.flags.contains(.idHasEscapes)) : nil,
            lid: r.flags.contains(.hasLid)
                ? string(storage.arena.lid(ofResource: Int(record)), escaped: r.flags.contains(.lidHasEscapes)) : nil)
    }

    func resourceIdentifier(linkage: UInt32) -> ResourceIdentifier {
        let l = unsafe linkages[Int(linkage)]
        return unsafe ResourceIdentifier(
            type: types.name(l.type), id: l.id.isPresent ? string(l.id, escaped: l.flags.contains(.idHasEscapes)) : nil,
            lid: l.flags.contains(.hasLid)
                ? string(storage.arena.lid(ofLinkage: Int(linkage)), escaped: l.flags.contains(.lidHasEscapes)) : nil)
    }

    /// Turns the pending skips into public values, locating them all in one pass.
    func skippedResources() -> [SkippedResource] {
        guard unsafe !skips.isEmpty else { return [] }
        let offsets = unsafe skips.map { unsafe min(max(0, $0.offset), bytes.count) }
        let locations: [SourceLocation]
        if unsafe storage.stream != nil {
            locations = offsets.map { offset in
                let place = unsafe storage.locate(offset)
                return SourceLocation(line: place.line, column: place.column, pointer: place.pointer)
            }
        } else {
            locations = unsafe bytes.withUnsafeBytes { bytes in unsafe SourceLocator.locate(offsets: offsets, in: bytes)
            }
        }
        var result: [SkippedResource] = []
        unsafe result.reserveCapacity(skips.count)
        for (position, skip) in unsafe skips.enumerated() {
            let identifier =
                skip.linkage != .max
                ? resourceIdentifier(linkage: skip.linkage) : resourceIdentifier(record: skip.record)
            let location = position < locations.count ? locations[position] : nil
            result.append(
                SkippedResource(
                    identifier: identifier, reason: skip.reason, codingPath: renderPath(skip.path),
                    pointer: location?.pointer ?? "", line: location?.line ?? 0, column: location?.column ?? 0))
        }
        return result
    }
}

/// Walks the elements of a JSON array in the validated input.
struct ArrayCursor {
    var position: Int
    let end: Int
    var started = false

    init(_ range: ByteRange) {
        position = Int(range.start) &+ 1
        end = Int(range.end)
    }

    /// The next element's range, or nil after the last.
    @inline(__always)
    mutating func next(_ b: ByteView) -> ByteRange? {
        let limit = min(end, b.count)
        // SAFETY: each unchecked read is at `i` with `0 <= i < limit <= b.count`: `position`
        // starts past the array's (non-negative) start and only grows.
        var i = max(position, 0)
        if i < limit, unsafe b[unchecked: i] <= 0x20 { i = ValueReader.skipWhitespace(b, i) }
        if started {
            guard i < limit, unsafe b[unchecked: i] == UInt8(ascii: ",") else {
                position = limit
                return nil
            }
            i &+= 1
            if i < limit, unsafe b[unchecked: i] <= 0x20 { i = ValueReader.skipWhitespace(b, i) }
        }
        guard i < limit, unsafe b[unchecked: i] != UInt8(ascii: "]") else {
            position = limit
            return nil
        }
        started = true
        let valueEnd = ValueReader.valueEnd(b, i)
        position = valueEnd
        return ByteRange(i, valueEnd)
    }

    /// Whether another element follows, without consuming it.
    func isAtEnd(_ b: ByteView) -> Bool {
        var copy = self
        return copy.next(b) == nil
    }
}
