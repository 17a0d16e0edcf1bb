/// The JSON:API state machine: turns tokenizer events into arena records and checks the
/// specification's rules as it goes.
///
/// It is a struct with an explicit stack of ``Frame``s, one per JSON:API object or array it is
/// inside (never recursion, so nesting is bounded by the scanner's depth limit, not the call
/// stack). Values the grammar does not structure (attribute values, the insides of `meta`,
/// extension members) are not given frames: the builder counts their nesting in `opaqueDepth`
/// and records only their byte range, checking member names on the way.
///
/// Spec violations do not stop the build. They are collected as diagnostics with the offset of
/// the offending token; ``finish()`` turns them into errors (strict) or warnings (lenient), and
/// the JSON Pointer, line and column are computed only then, by one pass over the input.
///
/// `@safe`: it reads `input` only at token ranges the driver delivered with the event, which lie in
/// the bytes the driver bound to `input` before the chunk.
@_spi(Backend)
@safe
public struct DocumentBuilder: JSONEventHandler {
    /// Every byte of the input received so far; the driver rebinds it before each chunk.
    /// Only read while an event is being handled (through ``bytes``, or handed to the owners'
    /// byte loops).
    public var input = unsafe InputBuffer.noBytes

    /// ``input`` as a view, for reading it while an event is being handled.
    @inline(__always)
    var bytes: ByteView {
        // SAFETY: the driver keeps `input` valid and unchanged while an event is handled, which is
        // the only time the builder reads it; no view is kept past the event.
        unsafe ByteView(unsafeBytes: input)
    }

    let options: ParsingOptions
    /// The keys the whole-object readers match, from `options.rules`.
    let readerKeys: ReaderKeys
    var arena = ResourceArena()
    /// The innermost frame, kept out of the array so the per-event work touches a plain field.
    var top = Frame(.topLevel, at: 0)
    /// Whether `top` is a live frame (false before the root object and after it closes).
    var hasTop = false
    /// The frames beneath `top`, outermost first.
    var below: [Frame] = []
    var opaqueDepth = 0
    var opaqueStart = 0
    var opaqueIsAttributeValue = false
    var rootSeen = false
    var topLevelHasExtensionMember = false
    var pending: [PendingDiagnostic] = []
    var errorCount = 0
    var uncountedDiagnostics = 0
    /// Attribute names of the resource being built, for the attribute/relationship clash rule.
    var fieldNames: [ByteRange] = []
    var fieldNamesEscaped = false
    var scratch: [UInt8] = []
    /// The identifiers of a relationship being taken whole (see `DocumentBuilder+WholeObjects`).
    var plainIdentifiers: [PlainIdentifier] = []
    /// The relationships of a resource being taken whole (`DocumentBuilder+WholeResources`).
    var plainRelationships: [PlainRelationship] = []
    /// The member names of an `attributes` object being read whole (chunk indices).
    var fieldNameScratch: [Range<Int>] = []
    /// Each resource's and each identifier's index digest (`ResourceIndex.digest`), taken as the
    /// object closes, while its id is in cache; `finish()` builds the index and resolves linkage
    /// from these without reading the ids again. Dropped with the builder.
    var resourceDigests: [UInt64] = []
    var linkageDigests: [UInt64] = []
    /// Whether the build took part in recycling (``ArenaShelf``): a large, sized document.
    var recyclesMemory = false
    /// The document's size when known (``reserveCapacity(forDocumentBytes:)``), else 0: the
    /// record arrays grow to what the bytes read so far predict for the whole document.
    var expectedDocumentBytes = 0

    /// Creates a builder for one document.
    public init(options: ParsingOptions) {
        self.options = options
        self.readerKeys = options.rules.readerKeys
        below.reserveCapacity(16)
        arena.index.drawKeys()
    }

    /// Sizes the record arrays for a document of about `byteCount` bytes, so a large document
    /// does not re-copy its records a dozen times as they grow, and a small one does not
    /// allocate each array five or six times on its way up from empty (for a small document
    /// that growth would be a large share of the build's allocations). The guess (a resource
    /// and a relationship per 512 bytes, an identifier per 256) is generous for typical
    /// documents; capacity that is never written is address space only, and the arrays still
    /// grow past it.
    public mutating func reserveCapacity(forDocumentBytes byteCount: Int) {
        guard byteCount >= 512 else { return }
        expectedDocumentBytes = byteCount
        let resources = min(byteCount / 512, options.maximumResourceCount)
        recyclesMemory = options.recyclesMemory && byteCount >= ArenaShelf.minimumDocumentBytes
        // Swapped in, not copied: emptying an array the shelved set still referenced would
        // allocate a fresh one.
        if recyclesMemory, var shelved = ArenaShelf.active.takeRecords(wantedResources: resources) {
            swap(&arena.resources, &shelved.resources)
            swap(&arena.relationships, &shelved.relationships)
            swap(&arena.linkages, &shelved.linkages)
            arena.resources.removeAll(keepingCapacity: true)
            arena.relationships.removeAll(keepingCapacity: true)
            arena.linkages.removeAll(keepingCapacity: true)
            arena.index.adopt(slots: &shelved.slots)
        }
        if recyclesMemory, var shelved = ArenaShelf.active.takeDigests(wantedLinkages: byteCount / 256) {
            swap(&resourceDigests, &shelved.resources)
            swap(&linkageDigests, &shelved.linkages)
            resourceDigests.removeAll(keepingCapacity: true)
            linkageDigests.removeAll(keepingCapacity: true)
        }
        arena.resources.reserveCapacity(resources)
        arena.relationships.reserveCapacity(byteCount / 512)
        arena.linkages.reserveCapacity(byteCount / 256)
        // Room for about one resource or relationship in eight to have each rare member; more
        // grow. Unused capacity is address space, as above; this keeps a large build from
        // allocating each table a dozen times on its way up from empty. Below 1 MB a table is
        // allocated only when a member needs it.
        if byteCount >= 1 << 20 {
            let rare = byteCount / 4096
            arena.resourceLids.reserveCapacity(rare)
            arena.resourceMeta.reserveCapacity(rare)
            arena.relationshipLinks.reserveCapacity(rare)
            arena.relationshipMeta.reserveCapacity(rare)
            arena.linkageLids.reserveCapacity(rare)
            arena.linkageMeta.reserveCapacity(rare)
        }
        resourceDigests.reserveCapacity(resources)
        linkageDigests.reserveCapacity(byteCount / 256)
        // No huge pages for these: the last 2 MB page of each array would be resident however
        // little of it is used (3 MB more at 100 MB), and recycled arrays fault nothing anyway.

        // The per-resource scratch lists, at a size few resources outgrow.
        fieldNames.reserveCapacity(16)
        fieldNameScratch.reserveCapacity(16)
        plainIdentifiers.reserveCapacity(16)
        plainRelationships.reserveCapacity(8)
    }

    /// Appends a resource's record, which starts at document offset `offset`.
    @inline(__always)
    mutating func appendResource(_ record: ResourceRecord, at offset: Int) {
        if arena.resources.count == arena.resources.capacity { growResources(at: offset) }
        arena.resources.append(record)
    }

    /// Makes room for more resource records (and their digests) than doubling would: as many
    /// as the resources so far predict for the whole document at this density, an eighth more,
    /// when its size is known. The first guess (a resource per 512 bytes) is generous for most
    /// documents, but one of many tiny resources holds several times that, and each doubling
    /// on the way up copies every record written so far.
    @inline(never)
    mutating func growResources(at offset: Int) {
        let count = arena.resources.count
        var wanted = Swift.max(count &* 2, 16)
        if expectedDocumentBytes > offset, offset > 0 {
            let density = Double(count) / Double(offset)
            let predicted = density * Double(expectedDocumentBytes) * 1.125
            if predicted < Double(options.maximumResourceCount) { wanted = Swift.max(wanted, Int(predicted) &+ 16) }
        }
        wanted = Swift.min(wanted, Swift.max(options.maximumResourceCount, count &+ 1))
        arena.resources.reserveCapacity(wanted)
        resourceDigests.reserveCapacity(wanted)
    }

    /// The index digest of a record's (type, id), or 0 without both (never looked up).
    @inline(__always)
    mutating func digest(type: UInt32, id: ByteRange, escaped: Bool) -> UInt64 {
        guard type != .max, id.isPresent else { return 0 }
        if !escaped { return unsafe arena.index.digest(type: type, id: input.slice(id)) }
        let index = arena.index
        return unsafe ResourceIndex.withUnescaped(id, escaped: true, input: input, scratch: &scratch) {
            unsafe index.digest(type: type, id: $0)
        }
    }

    // MARK: Frames

    enum FrameKind: UInt8 {
        case topLevel, dataArray, includedArray, resource, attributes, relationships, relationship
        case linkageArray, identifier, links, linkObject, errorsArray, error, errorSource, jsonapi, meta
        case stringArray
    }

    /// Which object a `links` object belongs to, for its allowed member names.
    enum LinksContext: UInt8 {
        case topLevel, resource, relationship, error, linkObject
    }

    /// The member whose value comes next in an object frame.
    enum Member: UInt8 {
        case none
        case foreign  // extension member, @-member, or an unknown member kept in lenient mode
        case ignored  // skipped after a reported problem
        case data, included, errors, meta, links, jsonapi
        case type, id, lid, attributes, relationships
        case attributeValue, relationshipValue, metaValue, linkValue
        case href, rel, describedby, title, linkType, hreflang
        case status, code, detail, source, pointer, parameter, header
        case version, ext, profile
    }

    struct Frame {
        var kind: FrameKind
        var member: Member = .none
        var context: UInt8 = 0
        /// Bit per member already seen, for duplicate and required-member checks.
        var seen: UInt64 = 0
        /// Offset of the container's opening byte.
        var start: UInt32
        /// Record this frame fills (resource, relationship or linkage index), if any.
        var record: UInt32 = 0
        /// Offset where the current member's value starts.
        var valueStart: UInt32 = 0
        /// The current member's name (raw contents), for foreign members.
        var key: ByteRange = .absent
        var keyEscaped = false

        init(_ kind: FrameKind, at start: Int, context: UInt8 = 0, record: Int = 0) {
            self.kind = kind
            self.start = UInt32(truncatingIfNeeded: start)
            self.context = context
            self.record = UInt32(truncatingIfNeeded: record)
        }

        @inline(__always) func has(_ m: Member) -> Bool { seen & (1 << UInt64(m.rawValue)) != 0 }
        @inline(__always) mutating func mark(_ m: Member) { seen |= 1 << UInt64(m.rawValue) }
    }

    /// What kind of JSON value just started, for dispatch and messages.
    enum Shape {
        case object, array, string, number, literal(JSONLiteral)

        var name: String {
            switch self {
            case .object: "an object"
            case .array: "an array"
            case .string: "a string"
            case .number: "a number"
            case .literal(.null): "null"
            case .literal(.true), .literal(.false): "a boolean"
            }
        }
    }

    // MARK: Events

    /// Whether the next value is an attribute's or a `meta` member's: opaque, recorded by nobody.
    @inline(__always)
    var nextValueIsOpaqueField: Bool { top.member == .attributeValue || top.member == .metaValue }

    public mutating func beginObject(at offset: Int) throws(JSONAPIError) {
        if opaqueDepth > 0 {
            opaqueDepth &+= 1
            return
        }
        if nextValueIsOpaqueField {
            opaqueDepth = 1
            opaqueStart = offset
            opaqueIsAttributeValue = top.member == .attributeValue
            return
        }
        try begin(.object, at: offset, end: offset, token: nil)
    }

    public mutating func beginArray(at offset: Int) throws(JSONAPIError) {
        if opaqueDepth > 0 {
            opaqueDepth &+= 1
            return
        }
        if nextValueIsOpaqueField {
            opaqueDepth = 1
            opaqueStart = offset
            opaqueIsAttributeValue = top.member == .attributeValue
            return
        }
        try begin(.array, at: offset, end: offset, token: nil)
    }

    public mutating func endObject(at offset: Int) throws(JSONAPIError) {
        try endContainer(at: offset)
    }

    public mutating func endArray(at offset: Int) throws(JSONAPIError) {
        try endContainer(at: offset)
    }

    public mutating func key(_ token: JSONStringToken) throws(JSONAPIError) {
        if opaqueDepth > 0 {
            opaqueKey(token)
            return
        }
        guard hasTop else { return }
        // Fast path for the most common key of all: a plain attribute or meta name.
        if (top.kind == .attributes || top.kind == .meta) && !token.hasEscapes {
            let name = unsafe input.slice(ByteRange(token.start, token.end))
            if unsafe MemberNameRules.isPlainFast(name, in: input)
                && (top.kind == .meta || !options.rules.contains(name, in: .reservedFieldNames, within: input))
            {
                top.key = ByteRange(token.start, token.end)
                top.keyEscaped = false
                if top.kind == .attributes {
                    fieldNames.append(top.key)
                    top.member = .attributeValue
                } else {
                    top.member = .metaValue
                }
                return
            }
        }
        // And for a resource object's own members, when plain and not repeated.
        // The name is matched with its quotes, where it lies in the input.
        if top.kind == .resource && !token.hasEscapes,
            let member = options.rules.quotedKey(bytes, at: token.start &- 1, in: .resource)?.member,
            !top.has(member)
        {
            top.key = ByteRange(token.start, token.end)
            top.keyEscaped = false
            top.mark(member)
            top.member = member
            return
        }
        memberKey(token)
    }

    public mutating func string(_ token: JSONStringToken) throws(JSONAPIError) {
        if opaqueDepth > 0 || nextValueIsOpaqueField { return }
        // Fast path for a resource's plain `id` and `type`: what `begin` would do for them.
        if hasTop && top.kind == .resource && !token.hasEscapes {
            if top.member == .id {
                top.valueStart = UInt32(truncatingIfNeeded: token.start &- 1)
                arena.resources[Int(top.record)].id = ByteRange(token.start, token.end)
                top.member = .none
                return
            }
            if top.member == .type {
                let raw = unsafe input.slice(ByteRange(token.start, token.end))
                if unsafe MemberNameRules.isPlainFast(raw, in: input) {
                    top.valueStart = UInt32(truncatingIfNeeded: token.start &- 1)
                    arena.resources[Int(top.record)].type = unsafe arena.types.intern(raw)
                    top.member = .none
                    return
                }
            }
        }
        try begin(.string, at: token.start &- 1, end: token.end &+ 1, token: token)
    }

    public mutating func number(_ token: JSONNumberToken) throws(JSONAPIError) {
        if opaqueDepth > 0 || nextValueIsOpaqueField { return }
        try begin(
            .number, at: token.start, end: token.end,
            token: JSONStringToken(start: token.start, end: token.end, hasEscapes: false))
    }

    public mutating func literal(_ value: JSONLiteral, at offset: Int) throws(JSONAPIError) {
        if opaqueDepth > 0 || nextValueIsOpaqueField { return }
        try begin(.literal(value), at: offset, end: offset &+ value.length, token: nil)
    }

    // MARK: Containers and opaque values

    @inline(__always)
    mutating func push(_ frame: Frame) {
        if hasTop { below.append(top) }
        top = frame
        hasTop = true
    }

    @inline(__always)
    mutating func pop() -> Frame? {
        guard hasTop else { return nil }
        let frame = top
        if let next = below.popLast() {
            top = next
        } else {
            hasTop = false
        }
        return frame
    }

    @inline(__always)
    mutating func endContainer(at offset: Int) throws(JSONAPIError) {
        if opaqueDepth > 0 {
            opaqueDepth &-= 1
            if opaqueDepth == 0 && !nextValueIsOpaqueField { completeValue(start: opaqueStart, end: offset &+ 1) }
            return
        }
        guard let frame = pop() else { return }
        if !hasTop { top.member = .none }
        try close(frame, end: offset &+ 1)
        completeValue(start: Int(frame.start), end: offset &+ 1)
    }

    /// Skips a value without interpreting it; scalars complete at once.
    @inline(__always)
    mutating func skip(_ shape: Shape, at offset: Int, end: Int, attributeValue: Bool = false) {
        switch shape {
        case .object, .array:
            opaqueDepth = 1
            opaqueStart = offset
            opaqueIsAttributeValue = attributeValue
        default:
            completeValue(start: offset, end: end)
        }
    }

    /// A key inside an opaque value: member-name rules, and for objects inside attribute
    /// values, the rule that `relationships` and `links` are reserved there.
    mutating func opaqueKey(_ token: JSONStringToken) {
        if !token.hasEscapes {
            let name = unsafe input.slice(ByteRange(token.start, token.end))
            if unsafe MemberNameRules.isPlainFast(name, in: input)
                && !(opaqueIsAttributeValue
                    && options.rules.contains(name, in: .reservedInAttributeValues, within: input))
            {
                return
            }
        }
        unsafe withUnescaped(token) { builder, name in
            if case .invalid(let why) = unsafe MemberNameRules.classify(name) {
                builder.problem(token.start &- 1, .specViolation, "invalid member name: \(why)")
            }
            if builder.opaqueIsAttributeValue,
                unsafe builder.options.rules.contains(name, in: .reservedInAttributeValues, within: builder.input)
            {
                builder.problem(
                    token.start &- 1, .specViolation,
                    unsafe "an object inside an attribute value must not have a member named `\(String(decoding: name, as: UTF8.self))`"
                )
            }
        }
    }

    // MARK: Diagnostics

    struct PendingDiagnostic {
        var severity: Diagnostic.Severity
        var code: JSONAPIError.Code
        var message: String
        var offset: Int
    }

    /// Records a broken rule: an error in strict mode, a warning in lenient mode.
    @inline(never)
    mutating func problem(_ offset: Int, _ code: JSONAPIError.Code, _ message: String) {
        record(options.isLenient ? .warning : .error, offset, code, message)
    }

    /// Records a warning whatever the mode.
    @inline(never)
    mutating func warning(_ offset: Int, _ code: JSONAPIError.Code, _ message: String) {
        record(.warning, offset, code, message)
    }

    private mutating func record(
        _ severity: Diagnostic.Severity, _ offset: Int, _ code: JSONAPIError.Code, _ message: String
    ) {
        if severity == .error { errorCount += 1 }
        guard pending.count < options.maximumDiagnostics else {
            uncountedDiagnostics += 1
            return
        }
        pending.append(PendingDiagnostic(severity: severity, code: code, message: message, offset: offset))
    }

    // MARK: Byte helpers

    /// Calls `body` with the unescaped contents of a string token.
    @inline(__always)
    mutating func withUnescaped<R>(
        _ token: JSONStringToken, _ body: (inout DocumentBuilder, UnsafeRawBufferPointer) -> R
    ) -> R {
        let raw = unsafe input.slice(ByteRange(token.start, token.end))
        if !token.hasEscapes { return unsafe body(&self, raw) }
        var decoded: [UInt8] = []
        unsafe JSONStringDecoding.unescape(raw, into: &decoded)
        return unsafe decoded.withUnsafeBytes { unsafe body(&self, $0) }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes spell `literal` exactly.
    @inline(__always)
    func equals(_ literal: StaticString) -> Bool {
        // SAFETY: the bytes stay valid for this call, and the view does not outlive it.
        unsafe ByteView(unsafeBytes: self).elementsEqual(literal)
    }
}
