/// Where a ``ResourceStream``'s window sits in its document: what the stream, and the views and
/// decoders over its window, need to report absolute offsets, lines and JSON Pointers.
struct StreamLocation: Sendable {
    /// The absolute offset of window byte 0.
    var origin: Int
    /// Lines and columns at `origin`; nil when the stream does not count lines.
    var lines: LineCounter?
    /// Resources of `data` and of `included` before the arena's first record.
    var primaryBase: Int
    var includedBase: Int
    /// The pointer of the top-level member being read (`/meta`), and where its value starts in
    /// the window (nil when that is before the window: `data` or `included` after a slide).
    var member: (pointer: String, valueStart: Int?)? = nil

    /// The absolute offset, line, column and JSON Pointer of window offset `offset`.
    ///
    /// The pointer is the unit's (`/included/17`) joined with the place inside the unit, found
    /// by ``SourceLocator`` over the unit's bytes, which are all in the window. A place outside
    /// any resource is located over the window when the window still starts at the document's
    /// start; otherwise it is found from the top-level member being read.
    func locate(_ offset: Int, in bytes: UnsafeRawBufferPointer, arena: ResourceArena) -> (
        offset: Int, line: Int, column: Int, pointer: String
    ) {
        let o = max(0, min(offset, bytes.count))
        var line = 0
        var column = 0
        if var counter = lines {
            unsafe withSlice(bytes, 0..<o) { unsafe counter.advance(over: $0) }
            line = counter.line
            column = counter.column
        }
        var unit: (start: Int, end: Int, pointer: String)?
        var primary = primaryBase
        var included = includedBase
        for record in arena.resources {
            let isIncluded = record.flags.contains(.isIncluded)
            let start = Int(record.object.start)
            // A record still open has an empty range: it runs to the end of the window.
            let end = record.object.end == record.object.start ? bytes.count : min(Int(record.object.end), bytes.count)
            if o >= start && o < max(end, start &+ 1) {
                let index =
                    (isIncluded ? included : primary) &+ arena.skippedElements(isIncluded: isIncluded, before: start)
                let pointer =
                    isIncluded ? "/included/\(index)" : arena.topLevel.data == .one ? "/data" : "/data/\(index)"
                unit = (start, max(start, end), pointer)
                break
            }
            if isIncluded { included &+= 1 } else { primary &+= 1 }
        }
        // An element that is not a resource object: its place counts the records and the other
        // such elements before it.
        if unit == nil {
            for element in arena.skippedElements {
                let start = Int(element.range.start)
                // One still open has an empty range: it runs to the end of the window.
                let end =
                    element.range.end == element.range.start ? bytes.count : min(Int(element.range.end), bytes.count)
                guard o >= start && o < end else { continue }
                let records = arena.resources.reduce(0) {
                    $0 &+ ($1.flags.contains(.isIncluded) == element.isIncluded && Int($1.object.start) < start ? 1 : 0)
                }
                let index =
                    (element.isIncluded ? includedBase : primaryBase) &+ records
                    &+ arena.skippedElements(isIncluded: element.isIncluded, before: start)
                unit = (start, end, element.isIncluded ? "/included/\(index)" : "/data/\(index)")
                break
            }
        }
        var pointer = ""
        if let unit {
            let inside = unsafe withSlice(bytes, unit.start..<unit.end) {
                unsafe SourceLocator.locate(offsets: [o &- unit.start], in: $0)
            }
            pointer = unit.pointer + (inside.first?.pointer ?? "")
        } else if origin == 0 {
            pointer = unsafe SourceLocator.locate(offsets: [o], in: bytes).first?.pointer ?? ""
        } else if let place = unsafe completedMember(containing: o, in: bytes, arena: arena) {
            pointer = place
        } else if let member, let start = member.valueStart, start <= o, start < bytes.count {
            let inside = unsafe withSlice(bytes, start..<bytes.count) {
                unsafe SourceLocator.locate(offsets: [o &- start], in: $0)
            }
            pointer = member.pointer + (inside.first?.pointer ?? "")
        } else if let name = unsafe Self.memberName(keyAt: o, in: bytes) {
            // A top-level key outside the member being read: a repeated member, or one whose
            // value was ignored or has ended since (the builder keeps no range for either).
            pointer = Self.pointer(name)
        } else if let member {
            pointer = member.pointer
        }
        return (origin &+ o, line, column, pointer)
    }

    /// The name of the member whose key's opening quote is at window offset `o`: a complete
    /// string there, followed by `:`. Nil when no key starts there.
    static func memberName(keyAt o: Int, in bytes: UnsafeRawBufferPointer) -> String? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        return unsafe withSlice(bytes, o..<bytes.count) { rest -> String? in
            guard rest.count > 1, unsafe rest[0] == quote else { return nil }
            var i = 1
            var escaped = false
            while i < rest.count, unsafe rest[i] != quote {
                if unsafe rest[i] == backslash {
                    escaped = true
                    i &+= 1
                }
                i &+= 1
            }
            guard i < rest.count else { return nil }
            let end = i
            i &+= 1
            while i < rest.count, JSONScanner.isWhitespace(unsafe rest[i]) { i &+= 1 }
            guard i < rest.count, unsafe rest[i] == UInt8(ascii: ":") else { return nil }
            return unsafe withSlice(rest, 1..<end) { unsafe JSONStringDecoding.decode($0, hasEscapes: escaped) }
        }
    }

    /// The pointer of window offset `o` when it lies in a top-level member read completely in
    /// the window (`meta`, `links`, `jsonapi`, `errors`, an extension member, a member whose value
    /// is ignored): the member's, joined with the place inside its value.
    func completedMember(containing o: Int, in bytes: UnsafeRawBufferPointer, arena: ResourceArena)
        -> String?
    {
        func inside(_ range: ByteRange, _ name: String) -> String? {
            guard range.isPresent, Int(range.start) <= o, o < Int(range.end), Int(range.end) <= bytes.count else {
                return nil
            }
            let start = Int(range.start)
            let located = unsafe withSlice(bytes, start..<Int(range.end)) {
                unsafe SourceLocator.locate(offsets: [o &- start], in: $0)
            }
            return Self.pointer(name) + (located.first?.pointer ?? "")
        }
        let top = arena.topLevel
        if let found = inside(top.meta, "meta") ?? inside(top.links, "links") ?? inside(top.jsonapi, "jsonapi")
            ?? inside(top.errors, "errors") ?? inside(top.dataRange, "data")
        {
            return found
        }
        func member(in members: [ForeignMember]) -> String? {
            for member in members {
                let nameStart = Int(member.name.start) &- 1
                guard member.name.isPresent, nameStart <= o, o < Int(member.value.end),
                    Int(member.value.end) <= bytes.count
                else { continue }
                let name = unsafe JSONStringDecoding.decode(bytes.slice(member.name), hasEscapes: member.nameHasEscapes)
                if o < Int(member.value.start) { return Self.pointer(name) }
                return inside(member.value, name)
            }
            return nil
        }
        return member(in: arena.foreignMembers) ?? member(in: arena.ignoredMembers)
    }

    /// `/` and `name` with `~` and `/` escaped (RFC 6901).
    static func pointer(_ name: String) -> String {
        var pointer = "/"
        SourceLocator.appendToken(name, to: &pointer)
        return pointer
    }

    /// The JSON Pointer of offset `o` of a whole document `bytes` whose build left `arena`,
    /// found from what the build recorded rather than by reading the document again: inside a
    /// resource, the resource's place in its section (a binary search: records are in document
    /// order), then the relationship or `attributes` object holding the offset, and only the
    /// bytes of that innermost recorded object are read for the rest of the path. Inside a
    /// top-level member the arena keeps a range for, likewise. Only a place the arena says
    /// nothing about (a repeated or ignored member) is found by walking the document.
    static func documentPointer(_ o: Int, in bytes: UnsafeRawBufferPointer, arena: ResourceArena) -> String {
        if let (k, start, end) = resource(containing: o, in: arena), end <= bytes.count {
            let record = arena.resources[k]
            let top = arena.topLevel
            let prefix: String?
            let included = record.flags.contains(.isIncluded)
            let skipped = arena.skippedElements(isIncluded: included, before: start)
            if included {
                let first = Int(top.includedStart)
                prefix =
                    k >= first && k < first &+ Int(top.includedCount) ? "/included/\(k &- first &+ skipped)" : nil
            } else {
                let first = Int(top.primaryStart)
                let inSection = !top.primaryIsLinkage && k >= first && k < first &+ Int(top.primaryCount)
                prefix = !inSection ? nil : top.data == .one ? "/data" : "/data/\(k &- first &+ skipped)"
            }
            if let prefix {
                let inside = unsafe pointer(o, inside: record, spanning: start..<end, of: bytes, arena: arena)
                return prefix + inside
            }
        }
        let whole = StreamLocation(origin: 0, lines: nil, primaryBase: 0, includedBase: 0)
        if let place = unsafe whole.completedMember(containing: o, in: bytes, arena: arena) { return place }
        return unsafe SourceLocator.locate(offsets: [o], in: bytes).first?.pointer ?? ""
    }

    /// The pointer of offset `o` relative to the resource object `record` at `span`: through the
    /// relationship whose key or object holds it, or through `attributes`, else over the object.
    private static func pointer(
        _ o: Int, inside record: ResourceRecord, spanning span: Range<Int>, of bytes: UnsafeRawBufferPointer,
        arena: ResourceArena
    ) -> String {
        func walk(_ range: Range<Int>) -> String {
            unsafe withSlice(bytes, range) { unsafe SourceLocator.locate(offsets: [o &- range.lowerBound], in: $0) }
                .first?.pointer ?? ""
        }
        let first = Int(record.firstRelationship)
        for r in first..<(first &+ Int(record.relationshipCount)) where r < arena.relationships.count {
            let relationship = arena.relationships[r]
            let object = relationship.object
            guard relationship.name.isPresent, object.isPresent, Int(object.end) <= span.upperBound else { continue }
            // The key's opening quote, or the value.
            let onKey = o == Int(relationship.name.start) &- 1
            guard onKey || (Int(object.start) <= o && o < Int(object.end)) else { continue }
            let name = unsafe JSONStringDecoding.decode(
                bytes.slice(relationship.name), hasEscapes: relationship.flags.contains(.nameHasEscapes))
            var path = "/relationships/"
            SourceLocator.appendToken(name, to: &path)
            return onKey ? path : path + walk(Int(object.start)..<Int(object.end))
        }
        let attributes = record.attributes
        if attributes.isPresent, Int(attributes.start) <= o, o < Int(attributes.end),
            Int(attributes.end) <= span.upperBound
        {
            return "/attributes" + walk(Int(attributes.start)..<Int(attributes.end))
        }
        return walk(span)
    }

    /// The index and object range of the resource record whose object holds offset `o`, if any.
    static func resource(containing o: Int, in arena: ResourceArena) -> (Int, Int, Int)? {
        let resources = arena.resources
        var low = 0
        var high = resources.count
        while low < high {
            let middle = (low &+ high) &>> 1
            if resources[middle].object.isPresent && Int(resources[middle].object.start) <= o {
                low = middle &+ 1
            } else {
                high = middle
            }
        }
        guard low > 0 else { return nil }
        let object = resources[low &- 1].object
        guard object.isPresent, Int(object.start) <= o, o < Int(object.end) else { return nil }
        return (low &- 1, Int(object.start), Int(object.end))
    }
}

/// Calls `body` with `bytes[range]` (clamped to `bytes`), read through ``ByteView``.
func withSlice<R>(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    // SAFETY: `bytes` is valid for this call (the caller's scope lends it), and the view does not
    // outlive it.
    unsafe ByteView(unsafeBytes: bytes).subview(range.clamped(to: 0..<bytes.count)).withUnsafeBytes(body)
}
