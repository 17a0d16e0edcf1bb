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
                let pointer =
                    isIncluded
                    ? "/included/\(included)" : arena.topLevel.data == .one ? "/data" : "/data/\(primary)"
                unit = (start, max(start, end), pointer)
                break
            }
            if isIncluded { included &+= 1 } else { primary &+= 1 }
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
    /// the window (`meta`, `links`, `jsonapi`, `errors`, an extension member): the member's, joined
    /// with the place inside its value.
    private func completedMember(containing o: Int, in bytes: UnsafeRawBufferPointer, arena: ResourceArena)
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
        for member in arena.foreignMembers {
            let nameStart = Int(member.name.start) &- 1
            guard member.name.isPresent, nameStart <= o, o < Int(member.value.end), Int(member.value.end) <= bytes.count
            else { continue }
            let name = unsafe JSONStringDecoding.decode(bytes.slice(member.name), hasEscapes: member.nameHasEscapes)
            if o < Int(member.value.start) { return Self.pointer(name) }
            return inside(member.value, name)
        }
        return nil
    }

    /// `/` and `name` with `~` and `/` escaped (RFC 6901).
    static func pointer(_ name: String) -> String {
        var pointer = "/"
        SourceLocator.appendToken(name, to: &pointer)
        return pointer
    }
}

/// Calls `body` with `bytes[range]` (clamped to `bytes`), read through ``ByteView``.
func withSlice<R>(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    // SAFETY: `bytes` is valid for this call (the caller's scope lends it), and the view does not
    // outlive it.
    unsafe ByteView(unsafeBytes: bytes).subview(range.clamped(to: 0..<bytes.count)).withUnsafeBytes(body)
}
