/// Whole resource objects: an element of `data` or `included` taken in one step.
///
/// After the whole-object paths (`DocumentBuilder+WholeObjects.swift`), what remained of a
/// build's event work was the resource itself: its `{`, the keys `type`, `id`, `attributes`,
/// `relationships` and `links`, each relationship's name, the `}`s, and the field-name checks
/// at the close, about fifteen events per resource, each through the grammar's dispatch.
/// A resource lying wholly in the chunk, made only of those members (and `meta`) in their
/// plain shapes, is read here directly: first all of it, changing nothing, then its records
/// are written in the order its events would have written them (the resource, then each
/// relationship with its identifiers; the type names interned in document order). Anything
/// the event path would have an opinion on (a `lid`, another member, a repeated member or
/// field name, a missing `type` or `id`, a relationship or value the narrower readers
/// decline) declines the whole resource before anything changes, and the events follow.
/// `WholeObjectTests` compares both paths record for record.
extension DocumentBuilder {
    /// A resource object at `p[i]`, an element of the primary data array or of `included`;
    /// the index past its `}`, or nil with nothing changed. `depthLimit` counts the resource
    /// object as one level: its member objects are at level two (each reader checks its own
    /// nesting against what remains), a relationship's identifiers at level five.
    mutating func wholeResource(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, base: Int, stringLimit: Int, depthLimit: Int,
        section: Section
    ) -> Int? {
        guard depthLimit >= 2, arena.resources.count < options.maximumResourceCount else { return nil }
        let chunk = unsafe Self.chunk(p, n)
        var type: Range<Int>?
        var id: Range<Int>?
        var idEscaped = false
        var attributes: Range<Int>?
        var relationships: Range<Int>?
        var links: Range<Int>?
        var meta: Range<Int>?
        // Whether `type` came before `relationships`, whose identifiers intern type names too.
        var typeFirst = true
        fieldNameScratch.clearScratch()
        plainIdentifiers.clearScratch()
        plainRelationships.clearScratch()
        var j = i &+ 1
        unsafe Self.skipWhitespace(p, &j, n)
        while true {
            guard let key = unsafe options.rules.quotedKey(p, at: j, count: n, in: .resource) else { return nil }
            let member = key.member
            j &+= key.quoted.count
            guard unsafe Self.colon(p, &j, n) else { return nil }
            switch member {
            case .type:
                guard type == nil, let value = unsafe Self.plainString(p, &j, n, limit: stringLimit),
                    unsafe MemberNameRules.isPlainFast(
                        Self.bytes(p, value), in: chunk)
                else { return nil }
                type = value
            case .id:
                guard id == nil,
                    let value = unsafe Self.idString(p, &j, n, limit: stringLimit, escaped: &idEscaped)
                else { return nil }
                id = value
            case .attributes:
                guard attributes == nil,
                    let end = unsafe Self.parseAttributes(
                        p, at: j, count: n, stringLimit: stringLimit, depthLimit: depthLimit &- 1,
                        names: &fieldNameScratch, rules: options.rules)
                else { return nil }
                attributes = j..<end
                j = end
            case .relationships:
                guard relationships == nil,
                    let end = unsafe parseRelationships(
                        p, at: j, count: n, stringLimit: stringLimit, depthLimit: depthLimit &- 1)
                else { return nil }
                relationships = j..<end
                typeFirst = type != nil
                j = end
            case .links:
                guard links == nil,
                    let end = unsafe Self.parseLinks(
                        p, at: j, count: n, stringLimit: stringLimit, inRelationship: false, rules: options.rules)
                else { return nil }
                links = j..<end
                j = end
            case .meta:
                guard meta == nil,
                    let end = unsafe Self.parseMeta(
                        p, at: j, count: n, stringLimit: stringLimit, depthLimit: depthLimit &- 1, rules: options.rules)
                else { return nil }
                meta = j..<end
                j = end
            default:
                return nil
            }
            guard let more = unsafe Self.nextMember(p, &j, n) else { return nil }
            if !more { break }
        }
        guard let type, let id,
            unsafe Self.fieldNamesAreDistinct(p, attributes: fieldNameScratch, relationships: plainRelationships)
        else { return nil }

        // Accepted: the records the events would have made, in their order.
        let end = j &+ 1
        let r = arena.resources.count
        let typeName = unsafe Self.bytes(p, type)
        var record = ResourceRecord()
        record.object = ByteRange(base &+ i, base &+ end)
        record.id = ByteRange(base &+ id.lowerBound, base &+ id.upperBound)
        if idEscaped { record.flags.insert(.idHasEscapes) }
        if let attributes {
            record.attributes = ByteRange(base &+ attributes.lowerBound, base &+ attributes.upperBound)
        }
        if let links { record.links = ByteRange(base &+ links.lowerBound, base &+ links.upperBound) }
        if let meta {
            arena.resourceMeta.set(
                ByteRange(base &+ meta.lowerBound, base &+ meta.upperBound), for: r, flags: &record.flags)
        }
        record.firstRelationship = UInt32(truncatingIfNeeded: arena.relationships.count)
        record.relationshipCount = UInt32(truncatingIfNeeded: plainRelationships.count)
        if typeFirst { record.type = unsafe arena.types.intern(typeName, within: chunk) }
        if section == .included { record.flags.insert(.isIncluded) }
        appendResource(record, at: base &+ i)
        switch section {
        case .primary:
            if arena.topLevel.data == .one { arena.topLevel.primaryStart = UInt32(truncatingIfNeeded: r) }
            arena.topLevel.primaryCount &+= 1
        case .included:
            arena.topLevel.includedCount &+= 1
        }
        // By index: a `for` loop would retain the array around each call.
        var first = 0
        var k = 0
        while k < plainRelationships.count {
            let relationship = plainRelationships[k]
            unsafe appendRelationship(
                relationship,
                name: ByteRange(base &+ relationship.name.lowerBound, base &+ relationship.name.upperBound),
                nameEscaped: false, resource: nil, firstIdentifier: first, p, count: n, base: base)
            first &+= relationship.identifierCount
            k &+= 1
        }
        if !typeFirst { arena.resources[r].type = unsafe arena.types.intern(typeName, within: chunk) }
        if resourceDigests.count == r {
            let type = arena.resources[r].type
            let digest =
                idEscaped
                ? unsafe escapedDigest(type: type, p, id) : unsafe arena.index.digest(type: type, id: Self.bytes(p, id))
            resourceDigests.append(digest)
        }
        return end
    }

    /// A `relationships` object at `p[i]` whose members are plain field names (not `type` or
    /// `id`) with relationship objects `parseRelationship` takes, collected in
    /// `plainRelationships` (identifiers in `plainIdentifiers`); the index past its `}`.
    /// `depthLimit` counts the `relationships` object as one level.
    private mutating func parseRelationships(
        _ p: UnsafeRawPointer, at i: Int, count n: Int, stringLimit: Int, depthLimit: Int
    ) -> Int? {
        guard i < n, unsafe Self.byte(p, i) == UInt8(ascii: "{") else { return nil }
        let chunk = unsafe Self.chunk(p, n)
        var j = i &+ 1
        unsafe Self.skipWhitespace(p, &j, n)
        guard j < n else { return nil }
        if unsafe Self.byte(p, j) == UInt8(ascii: "}") { return j &+ 1 }
        while true {
            guard let name = unsafe Self.plainString(p, &j, n, limit: stringLimit) else { return nil }
            let nameBytes = unsafe Self.bytes(p, name)
            guard unsafe MemberNameRules.isPlainFast(nameBytes, in: chunk),
                unsafe !options.rules.contains(nameBytes, in: .reservedFieldNames, within: chunk),
                unsafe Self.colon(p, &j, n),
                var relationship = unsafe parseRelationship(
                    p, at: j, count: n, stringLimit: stringLimit, depthLimit: depthLimit &- 1)
            else { return nil }
            relationship.name = name
            plainRelationships.append(relationship)
            j = relationship.object.upperBound
            guard let more = unsafe Self.nextMember(p, &j, n) else { return nil }
            if !more { return j &+ 1 }
        }
    }

    /// Whether the attribute names in `fieldNameScratch` and the relationship names in
    /// `plainRelationships` (none with escapes) are all different, so that the close of the
    /// resource would report nothing. A 64-bit filter of one bit per name finds candidates;
    /// a candidate is compared only with the earlier names of the same bit. More than 64 names
    /// decline (the event path checks those with a set). Static, with the two lists passed in:
    /// a method on `self` called from the mutating reader above copied the whole builder to the
    /// stack for each resource.
    private static func fieldNamesAreDistinct(
        _ p: UnsafeRawPointer, attributes fieldNameScratch: [Range<Int>],
        relationships plainRelationships: [PlainRelationship]
    ) -> Bool {
        let attributeCount = fieldNameScratch.count
        let total = attributeCount &+ plainRelationships.count
        if total <= 1 { return true }
        guard total <= 64 else { return false }
        var filter: UInt64 = 0
        var a = 0
        while a < total {
            let name = a < attributeCount ? fieldNameScratch[a] : plainRelationships[a &- attributeCount].name
            let bit = unsafe Self.nameBit(p, name)
            if filter & bit != 0 {
                var b = 0
                while b < a {
                    let other = b < attributeCount ? fieldNameScratch[b] : plainRelationships[b &- attributeCount].name
                    if unsafe other.count == name.count && Self.nameBit(p, other) == bit
                        && memcmpBytes(p + other.lowerBound, p + name.lowerBound, name.count)
                    {
                        return false
                    }
                    b &+= 1
                }
            }
            filter |= bit
            a &+= 1
        }
        return true
    }

    /// The filter bit of the name at chunk indices `name` (see `fieldNameBit`).
    @inline(__always)
    private static func nameBit(_ p: UnsafeRawPointer, _ name: Range<Int>) -> UInt64 {
        unsafe fieldNameBit(Self.bytes(p, name))
    }

}
