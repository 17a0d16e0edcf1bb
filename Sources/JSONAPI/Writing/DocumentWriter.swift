// Writing parsed documents and owned values back out as JSON.
//
// A parsed document keeps every value as a byte range of its input, and the scanner has
// already proved those bytes are valid JSON. Writing a document (or any view into one) is
// therefore a copy of its byte range, normalised to the writer's format:
//
//   compact            the bytes with the whitespace between tokens dropped: one scan that
//                      skips string contents sixteen bytes at a time, then one append per run of
//                      bytes between whitespace (a single memcpy when the input is compact)
//   pretty             the bytes re-indented by `JSONWriter.rawValue` (strings untouched)
//   sorted keys        an explicit-stack walk of the value that orders each object's members by
//                      key (the bytes of the unescaped names) and copies scalars verbatim
//
// Nothing is decoded: strings keep the escapes they had in the input and numbers keep their
// exact text, so parse -> write -> parse gives back the same document, member for member and
// in the same order (unless keys are sorted). None of the walks recurse.

/// A value that writes itself as one JSON value through a ``JSONWriter``.
///
/// Parsed views (``Document``, ``ResourceObject``, ``JSONValue``, ...) and owned values
/// (``JSON``, ``JSONAPIErrorDocument``, ...) conform. Write several into one writer to compose
/// bigger documents, or get the bytes of one with ``jsonBytes(options:)``.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("author")
/// article.relationship("author")?.resolvedResource?.write(to: &writer)
/// writer.key("meta")
/// JSON(["copied": true]).write(to: &writer)
/// writer.endObject()
/// let bytes = try writer.finish()
/// ```
public protocol JSONWritable: Sendable {
    /// Writes `self` as one JSON value.
    ///
    /// Writing never throws on the spot. A value JSON cannot represent (a non-finite `Double` in
    /// a ``JSON``) is written as `null` and remembered as the writer's ``JSONWriter/misuse``,
    /// which ``JSONWriter/finish()`` throws.
    ///
    /// - Parameters:
    ///   - writer: The writer; its options decide compact or pretty output.
    ///   - sortingKeys: Order the members of every object by key, at every depth.
    func write(to writer: inout JSONWriter, sortingKeys: Bool)
}

extension JSONWritable {
    /// Writes `self` as one JSON value, members sorted by key when the writer's
    /// ``JSONWritingOptions/sortsKeys`` is on and in their original order otherwise.
    public func write(to writer: inout JSONWriter) {
        write(to: &writer, sortingKeys: writer.options.sortsKeys)
    }

    /// The UTF-8 JSON text of `self`.
    ///
    /// ```swift
    /// let error = JSONAPIErrorObject(status: 404, title: "Not Found")
    /// print(try error.jsonString())  // {"status":"404","title":"Not Found"}
    /// ```
    ///
    /// - Throws: ``JSONAPIError/Code/encodingFailed`` when the value holds something JSON cannot
    ///   represent (a NaN or infinite `Double`, number text that is not a JSON number).
    public func jsonBytes(options: JSONWritingOptions = JSONWritingOptions()) throws(JSONAPIError) -> [UInt8] {
        var writer = JSONWriter(options: options)
        write(to: &writer, sortingKeys: options.sortsKeys)
        return try writer.finish()
    }

    /// The JSON text of `self` as a string; see ``jsonBytes(options:)``.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) throws(JSONAPIError) -> String {
        String(decoding: try jsonBytes(options: options), as: UTF8.self)
    }
}

/// A view into a parsed document: its bytes are valid JSON, so writing it cannot fail.
///
/// Its ``jsonBytes(options:)`` does not throw.
///
/// ```swift
/// let document = try Document(parsing: body)
/// let pretty = document.jsonBytes(options: .pretty)
/// let attributes = document.primaryResources[0].attributes.jsonBytes(options: .init(sortsKeys: true))
/// ```
public protocol ParsedJSONWritable: JSONWritable {}

extension ParsedJSONWritable {
    /// The UTF-8 JSON text of this part of the document, in the requested format.
    ///
    /// - Complexity: O(n) in the size of the value: one scan and a copy when compact, plus a sort
    ///   of each object's members when keys are sorted.
    public func jsonBytes(options: JSONWritingOptions = JSONWritingOptions()) -> [UInt8] {
        // Reserve about what the output takes, so a large document is not copied as it grows.
        let inputBytes = (self as? any InputSized)?.inputByteCount ?? 0
        var writer = JSONWriter(
            options: options,
            reservingCapacity: options.prettyPrinted ? inputBytes + inputBytes / 2 : inputBytes)
        write(to: &writer, sortingKeys: options.sortsKeys)
        // The bytes of a parsed view are one complete valid value: the writer is complete.
        return writer.bytes
    }

    /// The JSON text of this part of the document as a string; see ``jsonBytes(options:)``.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) -> String {
        String(decoding: jsonBytes(options: options), as: UTF8.self)
    }
}

/// A view that knows how many input bytes it covers, to size the output buffer.
protocol InputSized {
    var inputByteCount: Int { get }
}

// MARK: - Copying valid JSON

extension JSONWriter {
    /// Writes the valid JSON value `json` in this writer's format: whitespace dropped (compact),
    /// re-indented (pretty), and with every object's members sorted when `sortingKeys` is set.
    ///
    /// The bytes must be one valid JSON value, as every byte range of a parsed document is.
    mutating func copyJSON(_ json: UnsafeRawBufferPointer, sortingKeys: Bool) {
        if sortingKeys {
            unsafe copySorted(json)
        } else if pretty {
            unsafe rawValue(json)
        } else {
            guard beforeValue() else { return }
            unsafe Self.appendMinified(json, to: &storage)
        }
    }

    /// Writes a value the writer cannot represent as `null` and remembers `error` as the first
    /// problem, so the structure stays well formed and ``finish()`` throws.
    mutating func recordUnwritable(_ error: JSONAPIError) {
        if firstMisuse == nil { firstMisuse = error }
        null()
    }

    /// Appends `json` without the whitespace between its tokens.
    ///
    /// String contents are skipped sixteen bytes per step (`ValueReader`'s string skip); each run
    /// of bytes between whitespace is appended at once, so compact input is copied with a single
    /// append.
    static func appendMinified(_ json: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let json = unsafe json.view
        let count = json.count
        var index = 0
        var runStart = 0
        while index < count {
            // SAFETY: `0 <= index < count` (the loop's condition).
            let byte = unsafe json[unchecked: index]
            if byte == UInt8(ascii: "\"") {
                index = ValueReader.stringEnd(json, index).end
            } else if byte <= 0x20 {
                // Outside strings, the only bytes up to 0x20 in valid JSON are whitespace.
                if runStart < index {
                    // SAFETY: `0 <= runStart < index < count`.
                    unsafe json.append(unchecked: runStart..<index, to: &out)
                }
                index &+= 1
                // SAFETY: `index < count` is tested before each read.
                while index < count, unsafe json[unchecked: index] <= 0x20 { index &+= 1 }
                runStart = index
            } else {
                index &+= 1
            }
        }
        // SAFETY: `0 <= runStart < count`.
        if runStart < count { unsafe json.append(unchecked: runStart..<count, to: &out) }
    }

    /// A member (or element) waiting to be written by the sorted walk.
    private struct SortItem {
        /// Raw key contents; `.absent` for array elements.
        var key: ByteRange
        var value: ByteRange
        /// The value's container position, or -1 for a scalar.
        var position: Int
        var keyHasEscapes: Bool
    }

    /// One open container of the sorted walk: its items are `items[next..<end]`.
    private struct SortFrame {
        let begin: Int
        var next: Int
        let end: Int
        let isObject: Bool
    }

    /// Writes `json` with every object's members ordered by key, depth first, with an explicit
    /// stack (so nesting depth costs heap, not call stack). The items of every open container
    /// share one array, each container's members sorted in place.
    private mutating func copySorted(_ json: UnsafeRawBufferPointer) {
        let start = unsafe ValueReader.skipWhitespace(json.view, 0)
        let ends = unsafe ContainerEnds(json, from: start, to: json.count)
        var items: [SortItem] = []
        var frames: [SortFrame] = []
        let rootPosition = ends.position(of: start) ?? -1
        var next = unsafe SortItem(
            key: .absent,
            value: rootPosition >= 0
                ? ends.range(at: rootPosition) : ByteRange(start, ValueReader.valueEnd(json.view, start)),
            position: rootPosition, keyHasEscapes: false)
        while true {
            // Open `next`: write a scalar, copy an array without objects, or push a container.
            let range = next.value
            if next.position < 0 {
                if beforeValue() { unsafe storage.append(contentsOf: json.slice(range)) }
            } else if unsafe json.view[Int(range.start)] == UInt8(ascii: "{") {
                let begin = items.count
                var cursor = unsafe ends.cursor(json, at: next.position)
                while let member = unsafe ends.nextMember(json, &cursor) {
                    items.append(
                        SortItem(
                            key: member.key, value: member.value, position: member.position,
                            keyHasEscapes: member.keyHasEscapes))
                }
                if items.count - begin > 1 { items[begin...].sort { unsafe Self.keyPrecedes($0, $1, in: json) } }
                beginObject()
                frames.append(SortFrame(begin: begin, next: begin, end: items.count, isObject: true))
            } else if !ends.holdsObject(at: next.position) {
                // Nothing to sort inside: copy the whole array in the writer's format.
                if pretty {
                    unsafe rawValue(json.slice(range))
                } else if beforeValue() {
                    unsafe Self.appendMinified(json.slice(range), to: &storage)
                }
            } else {
                let begin = items.count
                var cursor = unsafe ends.cursor(json, at: next.position)
                while let element = unsafe ends.nextElement(json, &cursor) {
                    items.append(
                        SortItem(key: .absent, value: element.value, position: element.position, keyHasEscapes: false))
                }
                beginArray()
                frames.append(SortFrame(begin: begin, next: begin, end: items.count, isObject: false))
            }
            // Close finished containers, then take the next item of the innermost open one.
            while let top = frames.last, top.next == top.end {
                if top.isObject { endObject() } else { endArray() }
                frames.removeLast()
                // A closed container's items are the last ones: its children closed before it.
                items.removeLast(items.count - top.begin)
            }
            guard let top = frames.last else { return }
            next = items[top.next]
            frames[frames.count - 1].next += 1
            if top.isObject { unsafe key(rawEscaped: json.slice(next.key)) }
        }
    }

    /// Whether member `a` goes before member `b`: by the bytes of the unescaped keys, and for
    /// equal keys by position, so the order of repeated keys is kept.
    private static func keyPrecedes(_ a: SortItem, _ b: SortItem, in json: UnsafeRawBufferPointer) -> Bool {
        let order: Int
        if !a.keyHasEscapes && !b.keyHasEscapes {
            order = unsafe compareBytes(json.slice(a.key), json.slice(b.key))
        } else {
            var x: [UInt8] = []
            var y: [UInt8] = []
            unsafe JSONStringDecoding.unescape(json.slice(a.key), into: &x)
            unsafe JSONStringDecoding.unescape(json.slice(b.key), into: &y)
            order = unsafe x.withUnsafeBytes { x in unsafe y.withUnsafeBytes { y in unsafe compareBytes(x, y) } }
        }
        return order != 0 ? order < 0 : a.value.start < b.value.start
    }

    /// Lexicographic comparison of two byte strings: negative, zero or positive.
    private static func compareBytes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let (a, b) = unsafe (a.view, b.view)
        let count = min(a.count, b.count)
        var index = 0
        while index < count {
            let x = a[index]
            let y = b[index]
            if x != y { return x < y ? -1 : 1 }
            index &+= 1
        }
        return a.count - b.count
    }
}

/// Where each object and array of a valid JSON value ends, found in one pass.
///
/// `ValueReader` finds the end of a value by scanning it, so a walk that visits every nested
/// value through it rescans each level once per enclosing level: O(size × depth). Walks that
/// visit every value (sorting keys, comparing, copying into ``JSON``) index the containers
/// first. Containers are numbered in document order (their *position*); the first container
/// inside the one at position `p` is at `p + 1`, and the next sibling of the one at `c` is at
/// `c` plus the number of containers in its subtree, so a walk finds the end of every nested value in O(1).
struct ContainerEnds {
    /// One object or array.
    private struct Container {
        /// The offset of its `{` or `[`.
        var start: UInt32
        /// The offset after its `}` or `]`.
        var end: UInt32
        /// The number of containers in its subtree, itself included.
        var subtreeCount: UInt32
        /// Whether it holds an object at any depth below it.
        var holdsObject: Bool
    }

    /// Every container, in document order (so by ascending start).
    private var containers: [Container] = []

    /// Indexes the containers of the valid JSON between `start` and `end`.
    init(_ json: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        var open: [Int] = []
        var index = max(start, 0)
        let json = unsafe json.view
        let end = min(end, json.count)
        // About one container per 40 bytes in JSON:API documents; growth handles the rest.
        containers.reserveCapacity((end &- start) / 40)
        while index < end {
            // SAFETY: `0 <= index < end <= json.count` (the loop's condition and the clamps above).
            let byte = unsafe json[unchecked: index]
            switch byte {
            case UInt8(ascii: "\""):
                index = ValueReader.stringEnd(json, index).end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if byte == UInt8(ascii: "{"), let parent = open.last {
                    containers[parent].holdsObject = true
                }
                open.append(containers.count)
                containers.append(
                    Container(
                        start: UInt32(truncatingIfNeeded: index), end: UInt32(truncatingIfNeeded: end), subtreeCount: 1,
                        holdsObject: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let opened = open.popLast() {
                    containers[opened].end = UInt32(truncatingIfNeeded: index &+ 1)
                    containers[opened].subtreeCount = UInt32(truncatingIfNeeded: containers.count &- opened)
                    if containers[opened].holdsObject, let parent = open.last { containers[parent].holdsObject = true }
                }
            default:
                break
            }
            index &+= 1
        }
        // Containers left open (input cut short) end where the indexed range ends.
        for opened in open { containers[opened].subtreeCount = UInt32(truncatingIfNeeded: containers.count &- opened) }
    }

    /// The position of the container starting at `start`, or nil when no container starts there.
    func position(of start: Int) -> Int? {
        let target = UInt32(truncatingIfNeeded: start)
        var low = 0
        var high = containers.count
        while low < high {
            let middle = (low &+ high) / 2
            if containers[middle].start < target { low = middle &+ 1 } else { high = middle }
        }
        return low < containers.count && containers[low].start == target ? low : nil
    }

    /// The range of the container at `position`.
    func range(at position: Int) -> ByteRange {
        ByteRange(start: containers[position].start, end: containers[position].end)
    }

    /// Whether the container at `position` holds an object at any depth.
    func holdsObject(at position: Int) -> Bool { containers[position].holdsObject }

    /// The end (exclusive) of the value starting at `start`.
    func valueEnd(_ json: UnsafeRawBufferPointer, _ start: Int) -> Int {
        if start < json.count, unsafe json.view[start] == UInt8(ascii: "{") || json.view[start] == UInt8(ascii: "["),
            let position = position(of: start)
        {
            return Int(containers[position].end)
        }
        return unsafe ValueReader.valueEnd(json.view, start)
    }

    /// A place inside an object or array, for reading its members or elements one by one.
    struct Cursor {
        /// The offset of the next member's key or the next element.
        fileprivate var index: Int
        /// The position of the next container among the remaining members or elements.
        fileprivate var child: Int
        fileprivate var finished: Bool
    }

    /// A cursor on the first member or element of the container at `position`.
    func cursor(_ json: UnsafeRawBufferPointer, at position: Int) -> Cursor {
        let start = Int(containers[position].start)
        let index = unsafe ValueReader.skipWhitespace(json.view, start &+ 1)
        let empty =
            unsafe index >= json.count || json.view[index] == UInt8(ascii: "}") || json.view[index] == UInt8(ascii: "]")
        return Cursor(index: index, child: position &+ 1, finished: empty)
    }

    /// The next member of an object: key contents, whether the key has escapes, the value and its
    /// position (-1 for a scalar); nil after the last.
    func nextMember(_ json: UnsafeRawBufferPointer, _ cursor: inout Cursor) -> (
        key: ByteRange, keyHasEscapes: Bool, value: ByteRange, position: Int
    )? {
        guard !cursor.finished, cursor.index < json.count, unsafe json.view[cursor.index] == UInt8(ascii: "\"") else {
            return nil
        }
        let (keyEnd, escaped) = unsafe ValueReader.stringEnd(json.view, cursor.index)
        let key = ByteRange(cursor.index &+ 1, max(cursor.index &+ 1, keyEnd &- 1))
        var index = unsafe ValueReader.skipWhitespace(json.view, keyEnd)
        guard index < json.count, unsafe json.view[index] == UInt8(ascii: ":") else {
            cursor.finished = true
            return nil
        }
        index = unsafe ValueReader.skipWhitespace(json.view, index &+ 1)
        guard index < json.count else {
            cursor.finished = true
            return nil
        }
        let (end, position) = unsafe valueEnd(json, index, child: &cursor.child)
        unsafe advance(json, &cursor, past: end)
        return (key, escaped, ByteRange(index, end), position)
    }

    /// The next element of an array and its position (-1 for a scalar); nil after the last.
    func nextElement(_ json: UnsafeRawBufferPointer, _ cursor: inout Cursor) -> (value: ByteRange, position: Int)? {
        guard !cursor.finished, cursor.index < json.count else { return nil }
        let start = cursor.index
        let (end, position) = unsafe valueEnd(json, start, child: &cursor.child)
        unsafe advance(json, &cursor, past: end)
        return (ByteRange(start, end), position)
    }

    /// Moves past the value ending at `end` and the comma after it; finishes at the closing bracket.
    @inline(__always)
    private func advance(_ json: UnsafeRawBufferPointer, _ cursor: inout Cursor, past end: Int) {
        let index = unsafe ValueReader.skipWhitespace(json.view, end)
        if index < json.count, unsafe json.view[index] == UInt8(ascii: ",") {
            cursor.index = unsafe ValueReader.skipWhitespace(json.view, index &+ 1)
        } else {
            cursor.finished = true
        }
    }

    /// The end of the value at `start` and its position (-1 for a scalar); `child` is the
    /// position of the next container among the siblings, moved past this one when it is one.
    @inline(__always)
    private func valueEnd(_ json: UnsafeRawBufferPointer, _ start: Int, child: inout Int) -> (Int, Int) {
        let byte = unsafe json.view[start]
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["), child < containers.count,
            Int(containers[child].start) == start
        {
            let position = child
            child &+= Int(containers[position].subtreeCount)
            return (Int(containers[position].end), position)
        }
        return unsafe (ValueReader.valueEnd(json.view, start), -1)
    }

    /// Calls `body` with (key contents, key has escapes, value) for each member of the object
    /// starting at `start`, until it returns false.
    func forEachMember(
        _ json: UnsafeRawBufferPointer, object start: Int, _ body: (ByteRange, Bool, ByteRange) -> Bool
    ) {
        guard let position = position(of: start), unsafe json.view[start] == UInt8(ascii: "{") else { return }
        var cursor = unsafe cursor(json, at: position)
        while let member = unsafe nextMember(json, &cursor) {
            guard body(member.key, member.keyHasEscapes, member.value) else { return }
        }
    }

    /// Calls `body` with each element of the array starting at `start`, until it returns false.
    func forEachElement(_ json: UnsafeRawBufferPointer, array start: Int, _ body: (ByteRange) -> Bool) {
        guard let position = position(of: start), unsafe json.view[start] == UInt8(ascii: "[") else { return }
        var cursor = unsafe cursor(json, at: position)
        while let element = unsafe nextElement(json, &cursor) {
            guard body(element.value) else { return }
        }
    }
}

extension UnsafeRawBufferPointer {
    /// A checked view of these bytes, for ``ValueReader``; used only while the bytes are lent.
    @inline(__always)
    fileprivate var view: ByteView { unsafe ByteView(unsafeBytes: self) }
}
