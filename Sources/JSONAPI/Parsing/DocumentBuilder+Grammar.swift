/// The JSON:API grammar: which member may appear in which object, what each value must be,
/// and what record each one fills.
extension DocumentBuilder {
    enum Section: UInt8 {
        case primary, included
    }

    enum IdentifierContext: UInt8 {
        case relationship, primary
    }

    enum StringArrayContext: UInt8 {
        case uris, plain
    }

    // MARK: Member names

    /// Decides which member a key names, reporting unknown, invalid and repeated names.
    mutating func memberKey(_ token: JSONStringToken) {
        let kind = top.kind
        let context = top.context
        top.key = ByteRange(token.start, token.end)
        top.keyEscaped = token.hasEscapes
        let offset = token.start &- 1
        var member: Member
        // A member the specification defines, matched with its quotes where it lies in the input;
        // anything else (escapes, foreign members, attribute names) is classified below.
        if !token.hasEscapes, let set = Self.definedMembers(kind),
            let entry = options.rules.quotedKey(bytes, at: offset, in: set)
        {
            member = entry.member
        } else {
            member = unsafe withUnescaped(token) { builder, name in
                unsafe builder.classifyMember(name, kind: kind, context: context, at: offset)
            }
        }
        switch member {
        case .none, .foreign, .ignored, .attributeValue, .relationshipValue, .metaValue, .linkValue:
            break
        default:
            if top.has(member) {
                problem(offset, .specViolation, "duplicate member `\(text(token))`")
                member = .ignored
            } else {
                top.mark(member)
            }
        }
        top.member = member
    }

    /// The rules table's set of the members an object of this kind may have, if its members are
    /// fixed by the specification.
    @inline(__always)
    static func definedMembers(_ kind: FrameKind) -> JSONAPIRules.Names? {
        switch kind {
        case .topLevel: .topLevel
        case .resource: .resource
        case .identifier: .identifier
        case .relationship: .relationship
        case .linkObject: .linkObject
        case .error: .error
        case .errorSource: .errorSource
        case .jsonapi: .jsonapi
        case .dataArray, .includedArray, .attributes, .relationships, .linkageArray, .links, .errorsArray, .meta,
            .stringArray:
            nil
        }
    }

    private mutating func classifyMember(
        _ name: UnsafeRawBufferPointer, kind: FrameKind, context: UInt8, at offset: Int
    ) -> Member {
        // An object whose members the specification fixes: the table says which member the
        // name is; any other name is foreign there.
        if let set = Self.definedMembers(kind) {
            if let member = unsafe options.rules.member(name, in: set, within: input) { return member }
            return unsafe foreignMember(name, in: Self.objectName(kind), at: offset, topLevel: kind == .topLevel)
        }
        switch kind {
        case .attributes:
            unsafe checkFieldName(name, at: offset, what: "an attribute")
            return .attributeValue
        case .relationships:
            // JSON:API 1.1: an @-member may appear in any object the specification defines and
            // is ignored by processors that do not know it; it is never a relationship.
            if case .atMember = unsafe MemberNameRules.classify(name) { return .foreign }
            unsafe checkFieldName(name, at: offset, what: "a relationship")
            return .relationshipValue
        case .meta:
            if case .invalid(let why) = unsafe MemberNameRules.classify(name) {
                problem(offset, .specViolation, "invalid member name in `meta`: \(why)")
            }
            return .metaValue
        case .links:
            return unsafe linkName(name, context: LinksContext(rawValue: context) ?? .resource, at: offset)
        case .dataArray, .includedArray, .linkageArray, .errorsArray, .stringArray, .topLevel, .resource, .identifier,
            .relationship, .linkObject, .error, .errorSource, .jsonapi:
            return .ignored
        }
    }

    /// How messages name an object of this kind.
    static func objectName(_ kind: FrameKind) -> String {
        switch kind {
        case .topLevel: "the top-level object"
        case .resource: "a resource object"
        case .identifier: "a resource identifier object"
        case .relationship: "a relationship object"
        case .linkObject: "a link object"
        case .error: "an error object"
        case .errorSource: "an error's `source` object"
        case .jsonapi: "the `jsonapi` object"
        case .dataArray, .includedArray, .attributes, .relationships, .linkageArray, .links, .errorsArray, .meta,
            .stringArray:
            "an object"
        }
    }

    /// A member the specification does not define for this object: allowed when it is an
    /// extension member or an @-member, otherwise a violation (kept in lenient mode).
    private mutating func foreignMember(
        _ name: UnsafeRawBufferPointer, in place: String, at offset: Int, topLevel: Bool = false
    ) -> Member {
        switch unsafe MemberNameRules.classify(name) {
        case .extensionMember:
            if topLevel { topLevelHasExtensionMember = true }
            return .foreign
        case .atMember:
            return .foreign
        case .invalid(let why):
            problem(offset, .specViolation, "invalid member name in \(place): \(why)")
            return .ignored
        case .plain:
            problem(
                offset, .specViolation,
                unsafe "\(place) must not have a member named `\(String(decoding: name, as: UTF8.self))`")
            return options.isLenient ? .foreign : .ignored
        }
    }

    /// Attribute and relationship names: valid member names, never `type` or `id`, never
    /// repeated, never shared between the two (checked when the resource closes).
    private mutating func checkFieldName(_ name: UnsafeRawBufferPointer, at offset: Int, what: String) {
        switch unsafe MemberNameRules.classify(name) {
        case .invalid(let why):
            problem(
                offset, .specViolation, "invalid \(what == "an attribute" ? "attribute" : "relationship") name: \(why)")
        case .plain, .atMember, .extensionMember:
            if unsafe options.rules.contains(name, in: .reservedFieldNames, within: input) {
                problem(
                    offset, .specViolation,
                    unsafe "\(what) must not be named `\(String(decoding: name, as: UTF8.self))`")
            }
        }
        if what == "an attribute" {
            fieldNames.append(top.key)
            if top.keyEscaped { fieldNamesEscaped = true }
        }
    }

    private mutating func linkName(_ name: UnsafeRawBufferPointer, context: LinksContext, at offset: Int)
        -> Member
    {
        guard let linkNames = JSONAPIRules.linkNames(context) else {
            // A resource's or a link object's `links`: any valid member name.
            if case .invalid(let why) = unsafe MemberNameRules.classify(name) {
                problem(offset, .specViolation, "invalid link name: \(why)")
            }
            return .linkValue
        }
        let allowed = unsafe options.rules.contains(name, in: linkNames, within: input)
        if allowed { return .linkValue }
        let place: String
        switch context {
        case .topLevel: place = "the top-level `links` object"
        case .relationship: place = "a relationship's `links` object"
        default: place = "an error's `links` object"
        }
        let member = unsafe foreignMember(name, in: place, at: offset)
        return member == .foreign ? .linkValue : member
    }

    // MARK: Values

    /// A value starts: push a frame, record a scalar, or skip it, as the grammar says.
    mutating func begin(_ shape: Shape, at offset: Int, end: Int, token: JSONStringToken?) throws(JSONAPIError) {
        guard hasTop else {
            if rootSeen {
                skip(shape, at: offset, end: end)
                return
            }
            rootSeen = true
            if case .object = shape {
                arena.topLevel.object.start = UInt32(truncatingIfNeeded: offset)
                push(Frame(.topLevel, at: offset))
            } else {
                problem(offset, .specViolation, "a JSON:API document must be a JSON object, found \(shape.name)")
                skip(shape, at: offset, end: end)
            }
            return
        }
        switch top.kind {
        case .dataArray:
            if options.kind == .relationshipUpdate {
                try beginIdentifier(shape, at: offset, end: end, context: .primary)
            } else {
                try beginResource(shape, at: offset, end: end, section: .primary)
            }
            return
        case .includedArray:
            try beginResource(shape, at: offset, end: end, section: .included)
            return
        case .linkageArray:
            try beginIdentifier(shape, at: offset, end: end, context: .relationship)
            return
        case .errorsArray:
            if case .object = shape {
                arena.errors.append(ByteRange(offset, offset))
                push(Frame(.error, at: offset, record: arena.errors.count &- 1))
            } else {
                problem(offset, .specViolation, "an error object must be an object, found \(shape.name)")
                skip(shape, at: offset, end: end)
            }
            return
        case .stringArray:
            if case .string = shape, let token {
                if top.context == StringArrayContext.uris.rawValue {
                    checkLink(token, what: "an extension or profile URI", mayBeEmpty: false)
                }
            } else {
                problem(offset, .specViolation, "expected a string in this array, found \(shape.name)")
            }
            skip(shape, at: offset, end: end)
            return
        default:
            break
        }
        top.valueStart = UInt32(truncatingIfNeeded: offset)
        try beginMemberValue(shape, at: offset, end: end, token: token, frame: top)
    }

    private mutating func beginMemberValue(
        _ shape: Shape, at offset: Int, end: Int, token: JSONStringToken?, frame top: Frame
    ) throws(JSONAPIError) {
        switch top.member {
        case .none, .ignored, .foreign:
            skip(shape, at: offset, end: end)

        case .data where top.kind == .topLevel:
            try beginPrimaryData(shape, at: offset, end: end)

        case .data:  // a relationship's linkage
            let r = Int(top.record)
            switch shape {
            case .literal(.null):
                arena.relationships[r].data = .null
                completeValue(start: offset, end: end)
            case .object:
                arena.relationships[r].data = .one
                try beginIdentifier(shape, at: offset, end: end, context: .relationship)
            case .array:
                arena.relationships[r].data = .many
                push(Frame(.linkageArray, at: offset))
            default:
                problem(
                    offset, .specViolation,
                    "relationship `data` must be null, a resource identifier object or an array of them, found \(shape.name)"
                )
                skip(shape, at: offset, end: end)
            }

        case .included:
            expect(.array, shape, at: offset, end: end, "`included` must be an array of resource objects") {
                $0.arena.topLevel.hasIncluded = true
                $0.arena.topLevel.includedStart = UInt32($0.arena.resources.count)
                $0.push(Frame(.includedArray, at: offset))
            }

        case .errors:
            expect(.array, shape, at: offset, end: end, "`errors` must be an array of error objects") {
                $0.push(Frame(.errorsArray, at: offset))
            }

        case .meta:
            expect(.object, shape, at: offset, end: end, "`meta` must be an object") {
                $0.push(Frame(.meta, at: offset))
            }

        case .links:
            let context: LinksContext
            switch top.kind {
            case .topLevel: context = .topLevel
            case .relationship: context = .relationship
            case .error: context = .error
            default: context = .resource
            }
            expect(.object, shape, at: offset, end: end, "`links` must be an object") {
                $0.push(Frame(.links, at: offset, context: context.rawValue))
            }

        case .jsonapi:
            expect(.object, shape, at: offset, end: end, "the `jsonapi` member must be an object") {
                $0.push(Frame(.jsonapi, at: offset))
            }

        case .type:
            if case .string = shape, let token {
                var typeIndex: UInt32?
                let raw = unsafe input.slice(ByteRange(token.start, token.end))
                if unsafe !token.hasEscapes && MemberNameRules.isPlainFast(raw) {
                    typeIndex = unsafe arena.types.intern(raw)
                } else {
                    typeIndex = unsafe withUnescaped(token) { builder, value in
                        if let why = unsafe MemberNameRules.isValidTypeValue(value) {
                            builder.problem(offset, .specViolation, "invalid `type` value: \(why)")
                            if unsafe value.isEmpty { return nil }
                        }
                        return unsafe builder.arena.types.intern(value)
                    }
                }
                if let typeIndex {
                    if top.kind == .resource {
                        arena.resources[Int(top.record)].type = typeIndex
                    } else if top.kind == .identifier {
                        arena.linkages[Int(top.record)].type = typeIndex
                    }
                }
            } else {
                problem(offset, .specViolation, "`type` must be a string, found \(shape.name)")
            }
            skip(shape, at: offset, end: end)

        case .id where top.kind == .resource || top.kind == .identifier:
            var range = ByteRange.absent
            var flags: RecordFlags = []
            switch shape {
            case .string:
                if let token {
                    range = ByteRange(token.start, token.end)
                    if token.hasEscapes { flags.insert(.idHasEscapes) }
                }
            case .number where options.isLenient:
                warning(offset, .specViolation, "`id` must be a string; kept the number's text")
                range = ByteRange(offset, end)
                flags.insert(.idIsNumber)
            default:
                problem(offset, .specViolation, "`id` must be a string, found \(shape.name)")
            }
            if range.isPresent {
                if top.kind == .resource {
                    arena.resources[Int(top.record)].id = range
                    arena.resources[Int(top.record)].flags.formUnion(flags)
                } else {
                    arena.linkages[Int(top.record)].id = range
                    arena.linkages[Int(top.record)].flags.formUnion(flags)
                }
            }
            skip(shape, at: offset, end: end)

        case .lid:
            if case .string = shape, let token {
                let range = ByteRange(token.start, token.end)
                if top.kind == .resource {
                    let r = Int(top.record)
                    arena.resourceLids.set(range, for: r, flags: &arena.resources[r].flags)
                    if token.hasEscapes { arena.resources[Int(top.record)].flags.insert(.lidHasEscapes) }
                } else if top.kind == .identifier {
                    let r = Int(top.record)
                    arena.linkageLids.set(range, for: r, flags: &arena.linkages[r].flags)
                    if token.hasEscapes { arena.linkages[Int(top.record)].flags.insert(.lidHasEscapes) }
                }
            } else {
                problem(offset, .specViolation, "`lid` must be a string, found \(shape.name)")
            }
            skip(shape, at: offset, end: end)

        case .attributes:
            expect(.object, shape, at: offset, end: end, "`attributes` must be an object") {
                $0.push(Frame(.attributes, at: offset))
            }

        case .relationships:
            expect(.object, shape, at: offset, end: end, "`relationships` must be an object") {
                let r = Int(top.record)
                $0.arena.resources[r].firstRelationship = UInt32($0.arena.relationships.count)
                $0.push(Frame(.relationships, at: offset, record: r))
            }

        case .attributeValue:
            skip(shape, at: offset, end: end, attributeValue: true)

        case .relationshipValue:
            expect(.object, shape, at: offset, end: end, "a relationship must be an object") {
                var record = RelationshipRecord()
                record.name = top.key
                record.object = ByteRange(offset, offset)
                if top.keyEscaped { record.flags.insert(.nameHasEscapes) }
                record.firstLinkage = UInt32($0.arena.linkages.count)
                $0.arena.relationships.append(record)
                $0.arena.resources[Int(top.record)].relationshipCount &+= 1
                $0.push(Frame(.relationship, at: offset, record: $0.arena.relationships.count &- 1))
            }

        case .metaValue:
            skip(shape, at: offset, end: end)

        case .linkValue, .describedby:
            switch shape {
            case .string:
                if let token { checkLink(token, what: "a link") }
                skip(shape, at: offset, end: end)
            case .literal(.null):
                skip(shape, at: offset, end: end)
            case .object:
                push(Frame(.linkObject, at: offset))
            default:
                problem(offset, .specViolation, "a link must be a string, a link object or null, found \(shape.name)")
                skip(shape, at: offset, end: end)
            }

        case .href:
            if case .string = shape, let token {
                checkLink(token, what: "`href`")
            } else {
                problem(offset, .specViolation, "`href` must be a string, found \(shape.name)")
            }
            skip(shape, at: offset, end: end)

        case .hreflang:
            switch shape {
            case .string: skip(shape, at: offset, end: end)
            case .array: push(Frame(.stringArray, at: offset, context: StringArrayContext.plain.rawValue))
            default:
                problem(
                    offset, .specViolation, "`hreflang` must be a string or an array of strings, found \(shape.name)")
                skip(shape, at: offset, end: end)
            }

        case .pointer:
            if case .string = shape, let token {
                let why = unsafe withUnescaped(token) { _, value in unsafe MemberNameRules.pointerProblem(value) }
                if let why { problem(offset, .specViolation, "`source.pointer` is not a JSON Pointer: \(why)") }
            } else {
                problem(offset, .specViolation, "`source.pointer` must be a string, found \(shape.name)")
            }
            skip(shape, at: offset, end: end)

        case .id, .rel, .title, .linkType, .status, .code, .detail, .parameter, .header, .version:
            if case .string = shape {
            } else {
                problem(offset, .specViolation, "`\(memberName(top.member))` must be a string, found \(shape.name)")
            }
            skip(shape, at: offset, end: end)

        case .source:
            expect(.object, shape, at: offset, end: end, "an error's `source` must be an object") {
                $0.push(Frame(.errorSource, at: offset))
            }

        case .ext, .profile:
            expect(
                .array, shape, at: offset, end: end, "`\(memberName(top.member))` must be an array of URI strings"
            ) {
                $0.push(Frame(.stringArray, at: offset, context: StringArrayContext.uris.rawValue))
            }
        }
    }

    /// Top-level `data`, whose shape depends on the document kind.
    private mutating func beginPrimaryData(_ shape: Shape, at offset: Int, end: Int) throws(JSONAPIError) {
        arena.topLevel.dataRange = ByteRange(offset, end)
        switch options.kind {
        case .relationshipUpdate:
            arena.topLevel.primaryIsLinkage = true
            arena.topLevel.primaryStart = UInt32(arena.linkages.count)
            switch shape {
            case .literal(.null):
                arena.topLevel.data = .null
                completeValue(start: offset, end: end)
            case .object:
                arena.topLevel.data = .one
                try beginIdentifier(shape, at: offset, end: end, context: .primary)
            case .array:
                arena.topLevel.data = .many
                push(Frame(.dataArray, at: offset))
            default:
                problem(
                    offset, .specViolation,
                    "primary data of a relationship update must be null, a resource identifier object or an array of them, found \(shape.name)"
                )
                skip(shape, at: offset, end: end)
            }
        case .createRequest, .updateRequest:
            if case .object = shape {
                arena.topLevel.data = .one
                try beginResource(shape, at: offset, end: end, section: .primary)
            } else {
                problem(
                    offset, .specViolation,
                    "primary data of \(options.kind == .createRequest ? "a create" : "an update") request must be a single resource object, found \(shape.name)"
                )
                skip(shape, at: offset, end: end)
            }
        case .response:
            switch shape {
            case .literal(.null):
                arena.topLevel.data = .null
                completeValue(start: offset, end: end)
            case .object:
                arena.topLevel.data = .one
                try beginResource(shape, at: offset, end: end, section: .primary)
            case .array:
                arena.topLevel.data = .many
                arena.topLevel.primaryStart = UInt32(arena.resources.count)
                push(Frame(.dataArray, at: offset))
            default:
                problem(
                    offset, .specViolation,
                    "primary data must be null, a resource object or an array of resource objects, found \(shape.name)"
                )
                skip(shape, at: offset, end: end)
            }
        }
    }

    private mutating func beginResource(_ shape: Shape, at offset: Int, end: Int, section: Section)
        throws(JSONAPIError)
    {
        guard case .object = shape else {
            problem(offset, .specViolation, "a resource object must be an object, found \(shape.name)")
            // An array's range stays empty (open) until it closes (`completeValue`).
            var known = end
            if case .array = shape { known = offset }
            arena.skippedElements.append(
                SkippedElement(range: ByteRange(offset, known), isIncluded: section == .included))
            skip(shape, at: offset, end: end)
            return
        }
        let r = arena.resources.count
        guard r < options.maximumResourceCount else {
            throw JSONAPIError.at(
                offset, .tooManyResources,
                "the document holds more than \(options.maximumResourceCount) resources (ParsingOptions.maximumResourceCount)"
            )
        }
        var record = ResourceRecord()
        record.object = ByteRange(offset, offset)
        record.firstRelationship = UInt32(arena.relationships.count)
        if section == .included { record.flags.insert(.isIncluded) }
        appendResource(record, at: offset)
        switch section {
        case .primary:
            if arena.topLevel.data == .one { arena.topLevel.primaryStart = UInt32(r) }
            arena.topLevel.primaryCount &+= 1
        case .included:
            arena.topLevel.includedCount &+= 1
        }
        fieldNames.clearScratch()
        fieldNamesEscaped = false
        push(Frame(.resource, at: offset, context: section.rawValue, record: r))
    }

    private mutating func beginIdentifier(
        _ shape: Shape, at offset: Int, end: Int, context: IdentifierContext
    ) throws(JSONAPIError) {
        guard case .object = shape else {
            problem(offset, .specViolation, "a resource identifier must be an object, found \(shape.name)")
            skip(shape, at: offset, end: end)
            return
        }
        var record = LinkageRecord()
        record.object = ByteRange(offset, offset)
        arena.linkages.append(record)
        switch context {
        case .primary:
            arena.topLevel.primaryCount &+= 1
        case .relationship:
            if let relationship = Self.currentRelationship(top: top, hasTop: hasTop, below: below) {
                arena.relationships[relationship].linkageCount &+= 1
            }
        }
        push(Frame(.identifier, at: offset, context: context.rawValue, record: arena.linkages.count &- 1))
    }

    /// The relationship record being filled, found from the innermost relationship frame.
    /// Static over the frames: a method on `self` read from the builder's mutating methods
    /// copied the whole builder to the stack on each call.
    static func currentRelationship(top: Frame, hasTop: Bool, below: [Frame]) -> Int? {
        if hasTop && top.kind == .relationship { return Int(top.record) }
        var i = below.count &- 1
        while i >= 0 {
            if below[i].kind == .relationship { return Int(below[i].record) }
            i &-= 1
        }
        return nil
    }

    /// Pushes via `push` when the value has the expected shape, else reports and skips it.
    @inline(__always)
    private mutating func expect(
        _ expected: Shape, _ shape: Shape, at offset: Int, end: Int, _ message: String,
        _ push: (inout DocumentBuilder) -> Void
    ) {
        switch (expected, shape) {
        case (.object, .object), (.array, .array):
            push(&self)
        default:
            problem(offset, .specViolation, "\(message), found \(shape.name)")
            skip(shape, at: offset, end: end)
        }
    }

    /// Checks a link, or an extension or profile URI, with ``MemberNameRules/linkProblem(_:)``, the
    /// rule both parse paths consult. An empty link is the current document; an empty extension
    /// or profile URI names nothing (`mayBeEmpty` false).
    private mutating func checkLink(_ token: JSONStringToken, what: String, mayBeEmpty: Bool = true) {
        let why: String?
        if token.start == token.end && !mayBeEmpty {
            why = "it is empty"
        } else if token.hasEscapes {
            why = unsafe withUnescaped(token) { _, value in unsafe MemberNameRules.linkProblem(value) }
        } else {
            why = unsafe MemberNameRules.linkProblem(input.slice(ByteRange(token.start, token.end)))
        }
        if let why { problem(token.start &- 1, .specViolation, "\(what) is not a valid URI: \(why)") }
    }

    // MARK: Completion

    /// A member value or array element has ended: record its range where the parent wants it.
    mutating func completeValue(start: Int, end: Int) {
        guard hasTop else {
            arena.topLevel.object.end = UInt32(truncatingIfNeeded: end)
            return
        }
        let frame = top
        switch frame.kind {
        case .dataArray, .includedArray:
            // A skipped element that is an array has ended.
            if let last = arena.skippedElements.indices.last, arena.skippedElements[last].range.start == start {
                arena.skippedElements[last].range.end = UInt32(truncatingIfNeeded: end)
            }
            return
        case .linkageArray, .errorsArray, .stringArray:
            return
        default:
            break
        }
        let range = ByteRange(start, end)
        let r = Int(frame.record)
        switch (frame.kind, frame.member) {
        case (.topLevel, .meta): arena.topLevel.meta = range
        case (.topLevel, .links): arena.topLevel.links = range
        case (.topLevel, .jsonapi): arena.topLevel.jsonapi = range
        case (.topLevel, .errors): arena.topLevel.errors = range
        case (.topLevel, .data): arena.topLevel.dataRange = range
        case (.topLevel, .foreign):
            arena.foreignMembers.append(ForeignMember(name: frame.key, nameHasEscapes: frame.keyEscaped, value: range))
        case (.topLevel, .ignored):
            arena.ignoredMembers.append(ForeignMember(name: frame.key, nameHasEscapes: frame.keyEscaped, value: range))
        case (.resource, .attributes): arena.resources[r].attributes = range
        case (.resource, .links): arena.resources[r].links = range
        case (.resource, .meta): arena.resourceMeta.set(range, for: r, flags: &arena.resources[r].flags)
        case (.relationship, .links):
            arena.relationshipLinks.set(range, for: r, flags: &arena.relationships[r].flags)
        case (.relationship, .meta):
            arena.relationshipMeta.set(range, for: r, flags: &arena.relationships[r].flags)
        case (.identifier, .meta): arena.linkageMeta.set(range, for: r, flags: &arena.linkages[r].flags)
        default: break
        }
        top.member = .none
    }

    /// An object or array frame has ended: check its required members and finish its record.
    mutating func close(_ frame: Frame, end: Int) throws(JSONAPIError) {
        let start = Int(frame.start)
        let r = Int(frame.record)
        switch frame.kind {
        case .resource:
            arena.resources[r].object.end = UInt32(truncatingIfNeeded: end)
            closeResource(frame, start: start)
        case .identifier:
            arena.linkages[r].object.end = UInt32(truncatingIfNeeded: end)
            if linkageDigests.count == r {
                let link = arena.linkages[r]
                linkageDigests.append(digest(type: link.type, id: link.id, escaped: link.flags.contains(.idHasEscapes)))
            }
            if !frame.has(.type) {
                problem(start, .specViolation, "a resource identifier object must have a `type` member")
            }
            if !frame.has(.id) && !frame.has(.lid) {
                problem(start, .specViolation, "a resource identifier object must have an `id` member (or a 1.1 `lid`)")
            }
        case .relationship:
            arena.relationships[r].object.end = UInt32(truncatingIfNeeded: end)
            if !frame.has(.data) && !frame.has(.links) && !frame.has(.meta) {
                problem(
                    start, .specViolation, "a relationship object must contain at least one of `data`, `links`, `meta`")
            } else if !frame.has(.data) && options.kind.relationshipsNeedData {
                problem(start, .specViolation, "a relationship in a request must contain `data`")
            }
        case .error:
            arena.errors[r].end = UInt32(truncatingIfNeeded: end)
            if !Self.errorObjectMembers.contains(where: frame.has) {
                problem(
                    start, .specViolation,
                    "an error object must contain at least one of `id`, `links`, `status`, `code`, `title`, `detail`, `source`, `meta`"
                )
            }
        case .linkObject:
            if !frame.has(.href) {
                problem(start, .specViolation, "a link object must contain `href`")
            }
        case .topLevel:
            closeTopLevel(frame, start: start)
        default:
            break
        }
    }

    /// The members the specification defines for an error object; JSON:API 1.1 requires at
    /// least one of them (an extension member or @-member alone does not count).
    static let errorObjectMembers: [Member] = [.id, .links, .status, .code, .title, .detail, .source, .meta]

    private mutating func closeResource(_ frame: Frame, start: Int) {
        let r = Int(frame.record)
        if resourceDigests.count == r {
            let record = arena.resources[r]
            resourceDigests.append(
                digest(type: record.type, id: record.id, escaped: record.flags.contains(.idHasEscapes)))
        }
        let section = Section(rawValue: frame.context) ?? .included
        if !frame.has(.type) {
            problem(start, .specViolation, "a resource object must have a `type` member")
        }
        if !frame.has(.id) {
            let mayOmit = section == .primary && options.kind == .createRequest
            if !mayOmit {
                if frame.has(.lid) {
                    if section == .primary && options.kind != .createRequest {
                        problem(start, .specViolation, "a resource object must have an `id` member")
                    }
                } else {
                    problem(start, .specViolation, "a resource object must have an `id` member")
                }
            }
        }
        // Attribute and relationship names share one namespace ("fields"): no repeats, no clashes.
        // Written as plain loops over a local copy of the input pointer: a closure here would
        // capture (and so copy) the whole builder.
        let record = arena.resources[r]
        let first = Int(record.firstRelationship)
        let last = first + Int(record.relationshipCount)
        guard !fieldNames.isEmpty || last - first > 1 else { return }
        let input = unsafe self.input
        if fieldNames.count <= 64 && last - first <= 64 {
            // The common case: a 64-bit filter over a cheap fingerprint of each name
            // (`fieldNameBit`) finds candidate repeats in one pass; only a candidate is
            // compared byte for byte. Nothing is allocated.
            var filter: UInt64 = 0
            var a = 0
            while a < fieldNames.count {
                let bit = unsafe fieldNamesEscaped ? ~0 : Self.fieldNameBit(input.slice(fieldNames[a]))
                if filter & bit != 0 {
                    var b = 0
                    while b < a {
                        if unsafe Self.sameName(fieldNames[b], fieldNames[a], input, escapes: fieldNamesEscaped) {
                            problem(
                                Int(fieldNames[a].start) &- 1, .specViolation,
                                "duplicate attribute `\(text(fieldNames[a]))`")
                            break
                        }
                        b += 1
                    }
                }
                filter |= bit
                a += 1
            }
            var relationshipFilter: UInt64 = 0
            var x = first
            while x < last {
                let name = arena.relationships[x].name
                let escaped = arena.relationships[x].flags.contains(.nameHasEscapes)
                let bit = unsafe escaped || fieldNamesEscaped ? ~0 : Self.fieldNameBit(input.slice(name))
                if filter & bit != 0 {
                    let escapes = fieldNamesEscaped || escaped
                    for field in fieldNames where unsafe Self.sameName(field, name, input, escapes: escapes) {
                        problem(
                            Int(name.start) &- 1, .specViolation,
                            "`\(text(name))` is both an attribute and a relationship; fields share one namespace")
                        break
                    }
                }
                if relationshipFilter & bit != 0 {
                    var y = first
                    while y < x {
                        if unsafe Self.sameName(arena.relationships[y].name, name, input, escapes: true) {
                            problem(Int(name.start) &- 1, .specViolation, "duplicate relationship `\(text(name))`")
                            break
                        }
                        y += 1
                    }
                }
                relationshipFilter |= bit
                x += 1
            }
            return
        }
        var seen = Set<[UInt8]>()
        for name in fieldNames where unsafe !seen.insert(Self.unescaped(name, input)).inserted {
            problem(Int(name.start) &- 1, .specViolation, "duplicate attribute `\(text(name))`")
        }
        var relationshipSeen = Set<[UInt8]>()
        for x in first..<last {
            let name = arena.relationships[x].name
            let key = unsafe Self.unescaped(name, input)
            if seen.contains(key) {
                problem(
                    Int(name.start) &- 1, .specViolation,
                    "`\(text(name))` is both an attribute and a relationship; fields share one namespace")
            } else if !relationshipSeen.insert(key).inserted {
                problem(Int(name.start) &- 1, .specViolation, "duplicate relationship `\(text(name))`")
            }
        }
    }

    /// One of 64 bits for a field name's raw bytes, chosen by its length and its first, middle
    /// and last bytes mixed by a multiplicative hash (field names often share a length and an
    /// end letter). The filters of both duplicate checks use it: `closeResource` and the
    /// whole-resource path's `fieldNamesAreDistinct`.
    @inline(__always)
    static func fieldNameBit(_ name: UnsafeRawBufferPointer) -> UInt64 {
        // SAFETY: the caller's bytes stay valid for this call, and the view does not outlive it.
        let name = unsafe ByteView(unsafeBytes: name)
        let count = name.count
        guard count > 0 else { return 1 }
        let first = name[0]
        let middle = name[count &>> 1]
        let last = name[count &- 1]
        let key = UInt64(truncatingIfNeeded: count) | UInt64(first) &<< 16 | UInt64(middle) &<< 24 | UInt64(last) &<< 32
        return 1 &<< ((key &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }

    /// Whether two member names (raw contents) are the same once unescaped.
    /// With `escapes` false neither name has a backslash, so raw bytes decide.
    @inline(__always)
    private static func sameName(_ a: ByteRange, _ b: ByteRange, _ input: UnsafeRawBufferPointer, escapes: Bool)
        -> Bool
    {
        if !escapes && a.end &- a.start != b.end &- b.start { return false }
        let x = unsafe input.slice(a)
        let y = unsafe input.slice(b)
        let backslash = UInt8(ascii: "\\")
        if unsafe !escapes || (!x.contains(backslash) && !y.contains(backslash)) {
            // SAFETY: both slices lie in `input`, valid for this call; the views do not outlive it.
            return unsafe ByteView(unsafeBytes: x).elementsEqual(ByteView(unsafeBytes: y))
        }
        return unsafe unescaped(a, input) == unescaped(b, input)
    }

    private mutating func closeTopLevel(_ frame: Frame, start: Int) {
        let hasData = frame.has(.data)
        let hasErrors = frame.has(.errors)
        if !hasData && !hasErrors && !frame.has(.meta) && !topLevelHasExtensionMember {
            problem(start, .specViolation, "a document must contain at least one of `data`, `errors` and `meta`")
        }
        if hasData && hasErrors {
            problem(start, .specViolation, "`data` and `errors` must not both be in a document")
        }
        if frame.has(.included) && !hasData {
            problem(start, .specViolation, "a document without `data` must not contain `included`")
        }
        if options.kind != .response && !hasData && !topLevelHasExtensionMember {
            problem(start, .specViolation, "a request document must contain `data`")
        }
    }

    /// The unescaped bytes of a name's raw contents.
    private static func unescaped(_ range: ByteRange, _ input: UnsafeRawBufferPointer) -> [UInt8] {
        let raw = unsafe input.slice(range)
        guard unsafe raw.contains(UInt8(ascii: "\\")) else { return unsafe [UInt8](raw) }
        var out: [UInt8] = []
        unsafe JSONStringDecoding.unescape(raw, into: &out)
        return out
    }

    /// The unescaped text of a string token, for messages.
    func text(_ token: JSONStringToken) -> String {
        unsafe JSONStringDecoding.decode(input.slice(ByteRange(token.start, token.end)), hasEscapes: token.hasEscapes)
    }

    func text(_ range: ByteRange) -> String {
        let raw = unsafe input.slice(range)
        return unsafe JSONStringDecoding.decode(raw, hasEscapes: raw.contains(UInt8(ascii: "\\")))
    }

    private func memberName(_ member: Member) -> String {
        switch member {
        case .id: "id"
        case .rel: "rel"
        case .title: "title"
        case .linkType: "type"
        case .status: "status"
        case .code: "code"
        case .detail: "detail"
        case .parameter: "parameter"
        case .header: "header"
        case .version: "version"
        case .ext: "ext"
        case .profile: "profile"
        default: "\(member)"
        }
    }
}
