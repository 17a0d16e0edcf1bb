// Writing parsed documents and owned values back out as JSON.
//
// A parsed document keeps every value as a byte range of its input, and the scanner has
// already proved those bytes are valid JSON. Writing a document (or any view into one) is
// therefore a copy of its byte range, normalised to the writer's format:
//
//   compact            the bytes with the whitespace between tokens dropped: one scan that
//                      skips string contents eight bytes at a time, then one append per run of
//                      bytes between whitespace (a single memcpy when the input is compact)
//   pretty             the bytes re-indented by `JSONWriter.rawValue` (strings untouched)
//   sorted keys        an explicit-stack walk of the value that orders each object's members by
//                      key (the bytes of the unescaped names) and copies scalars verbatim
//
// Nothing is decoded: strings keep the escapes they had in the input and numbers keep their
// exact text, so parse -> write -> parse gives back the same document, member for member and
// in the same order (unless keys are sorted). None of the walks recurse.

/// How a value is written by ``JSONWritable/jsonBytes(options:)``.
///
/// ```swift
/// let compact = try document.jsonBytes()                                        // one line
/// let pretty = try document.jsonBytes(options: .init(prettyPrinted: true, sortsKeys: true))
/// ```
public struct JSONWritingOptions: Sendable, Hashable {
    /// Put every member and element on its own line, indented. Off by default.
    public var prettyPrinted: Bool
    /// Spaces per nesting level when pretty printing (negative counts as 0). 2 by default.
    public var indent: Int
    /// Order the members of every object, at every depth, by key (compared by the UTF-8 bytes of
    /// the unescaped name, so the order does not depend on locale). Members with equal keys keep
    /// their order. Off by default: members are written in their original order.
    public var sortsKeys: Bool
    /// Escape `/` as `\/` in strings the writer formats. Strings copied from a parsed document
    /// keep the escapes they had in the input. Off by default.
    public var escapesSlashes: Bool

    /// Creates options; the defaults give compact output in the original member order.
    public init(prettyPrinted: Bool = false, indent: Int = 2, sortsKeys: Bool = false, escapesSlashes: Bool = false) {
        self.prettyPrinted = prettyPrinted
        self.indent = indent
        self.sortsKeys = sortsKeys
        self.escapesSlashes = escapesSlashes
    }

    /// Compact output in the original member order (the default).
    public static let compact = JSONWritingOptions()
    /// Pretty-printed output, two spaces per level, in the original member order.
    public static let pretty = JSONWritingOptions(prettyPrinted: true)

    /// The options of a ``JSONWriter`` that writes in this format.
    public var writerOptions: JSONWriter.Options {
        JSONWriter.Options(prettyPrinted: prettyPrinted, indent: indent, escapesSlashes: escapesSlashes)
    }
}

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
    /// Writes `self` as one JSON value, members in their original order.
    public func write(to writer: inout JSONWriter) {
        write(to: &writer, sortingKeys: false)
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
        var writer = JSONWriter(options: options.writerOptions)
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
        var writer = JSONWriter(options: options.writerOptions)
        write(to: &writer, sortingKeys: options.sortsKeys)
        // The bytes of a parsed view are one complete valid value: the writer is complete.
        return writer.bytes
    }

    /// The JSON text of this part of the document as a string; see ``jsonBytes(options:)``.
    public func jsonString(options: JSONWritingOptions = JSONWritingOptions()) -> String {
        String(decoding: jsonBytes(options: options), as: UTF8.self)
    }
}

// MARK: - Copying valid JSON

extension JSONWriter {
    /// Writes the valid JSON value `json` in this writer's format: whitespace dropped (compact),
    /// re-indented (pretty), and with every object's members sorted when `sortingKeys` is set.
    ///
    /// The bytes must be one valid JSON value, as every byte range of a parsed document is.
    mutating func copyJSON(_ json: UnsafeRawBufferPointer, sortingKeys: Bool) {
        if sortingKeys, json.contains(where: { $0 == UInt8(ascii: "{") }) {
            copySorted(json)
        } else if pretty {
            rawValue(json)
        } else {
            guard beforeValue() else { return }
            Self.appendMinified(json, to: &storage)
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
    /// String contents are skipped eight bytes at a time; each run of bytes between whitespace
    /// is appended at once, so compact input is copied with a single append.
    static func appendMinified(_ json: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        let count = json.count
        var index = 0
        var runStart = 0
        while index < count {
            let byte = json[index]
            if byte == UInt8(ascii: "\"") {
                index = ValueReader.stringEnd(json, index).end
            } else if byte <= 0x20 {
                // Outside strings, the only bytes up to 0x20 in valid JSON are whitespace.
                if runStart < index { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: json[runStart..<index])) }
                index &+= 1
                while index < count, json[index] <= 0x20 { index &+= 1 }
                runStart = index
            } else {
                index &+= 1
            }
        }
        if runStart < count { out.append(contentsOf: UnsafeRawBufferPointer(rebasing: json[runStart..<count])) }
    }

    /// One open container of the sorted walk: its members (or elements) in writing order.
    private struct SortFrame {
        /// Key contents (for objects) and value range of each item, already in writing order.
        var items: [(key: ByteRange, value: ByteRange)]
        var next = 0
        let isObject: Bool
    }

    /// Writes `json` with every object's members ordered by key, depth first, with an explicit
    /// stack (so nesting depth costs heap, not call stack).
    private mutating func copySorted(_ json: UnsafeRawBufferPointer) {
        var stack: [SortFrame] = []
        var scratch: [UInt8] = []
        let start = ValueReader.skipWhitespace(json, 0)
        let ends = ContainerEnds(json, from: start, to: json.count)

        func open(_ range: ByteRange, into writer: inout JSONWriter) {
            let start = Int(range.start)
            guard start < json.count else { return }
            switch json[start] {
            case UInt8(ascii: "{"):
                var members: [(key: ByteRange, value: ByteRange)] = []
                var escapedKeys: [Int: [UInt8]] = [:]
                ends.forEachMember(json, object: start) { key, escaped, value in
                    if escaped {
                        scratch.removeAll(keepingCapacity: true)
                        JSONStringDecoding.unescape(json.slice(key), into: &scratch)
                        escapedKeys[members.count] = scratch
                    }
                    members.append((key, value))
                    return true
                }
                let order = members.indices.sorted { lhs, rhs in
                    let less = Self.keyPrecedes(
                        json, members[lhs].key, escapedKeys[lhs], members[rhs].key, escapedKeys[rhs])
                    if less { return true }
                    let greater = Self.keyPrecedes(
                        json, members[rhs].key, escapedKeys[rhs], members[lhs].key, escapedKeys[lhs])
                    return !greater && lhs < rhs
                }
                writer.beginObject()
                stack.append(SortFrame(items: order.map { members[$0] }, isObject: true))
            case UInt8(ascii: "["):
                var elements: [(key: ByteRange, value: ByteRange)] = []
                ends.forEachElement(json, array: start) { element in
                    elements.append((.absent, element))
                    return true
                }
                writer.beginArray()
                stack.append(SortFrame(items: elements, isObject: false))
            default:
                guard writer.beforeValue() else { return }
                writer.storage.append(contentsOf: json.slice(range))
            }
        }

        open(ByteRange(start, ends.valueEnd(json, start)), into: &self)
        while let top = stack.last {
            guard top.next < top.items.count else {
                if top.isObject { endObject() } else { endArray() }
                stack.removeLast()
                continue
            }
            let item = top.items[top.next]
            stack[stack.count - 1].next += 1
            if top.isObject { key(rawEscaped: json.slice(item.key)) }
            open(item.value, into: &self)
        }
    }

    /// Whether key `a` sorts before key `b`, comparing unescaped UTF-8 bytes.
    private static func keyPrecedes(
        _ json: UnsafeRawBufferPointer, _ a: ByteRange, _ aUnescaped: [UInt8]?, _ b: ByteRange, _ bUnescaped: [UInt8]?
    ) -> Bool {
        switch (aUnescaped, bUnescaped) {
        case (nil, nil): return json.slice(a).lexicographicallyPrecedes(json.slice(b))
        case (let x?, nil): return x.lexicographicallyPrecedes(json.slice(b))
        case (nil, let y?): return json.slice(a).lexicographicallyPrecedes(y)
        case (let x?, let y?): return x.lexicographicallyPrecedes(y)
        }
    }
}

/// Where each object and array of a valid JSON value ends, found in one pass.
///
/// `ValueReader` finds the end of a value by scanning it, so a walk that visits every nested
/// value through it rescans each level once per enclosing level: O(size × depth). Walks that
/// visit every value (sorting keys, comparing, copying into ``JSON``) index the container ends
/// first, then find any value's end in O(log n).
struct ContainerEnds {
    /// Offsets of `{` and `[`, in document order (so ascending), and of the byte after the match.
    private var starts: [UInt32] = []
    private var ends: [UInt32] = []

    /// Indexes the containers of the valid JSON between `start` and `end`.
    init(_ json: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        var open: [Int] = []
        var index = start
        let end = min(end, json.count)
        while index < end {
            switch json[index] {
            case UInt8(ascii: "\""):
                index = ValueReader.stringEnd(json, index).end
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(starts.count)
                starts.append(UInt32(truncatingIfNeeded: index))
                ends.append(UInt32(truncatingIfNeeded: end))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let opened = open.popLast() { ends[opened] = UInt32(truncatingIfNeeded: index &+ 1) }
            default:
                break
            }
            index &+= 1
        }
    }

    /// The end (exclusive) of the value starting at `start`.
    func valueEnd(_ json: UnsafeRawBufferPointer, _ start: Int) -> Int {
        guard start < json.count else { return json.count }
        switch json[start] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let target = UInt32(truncatingIfNeeded: start)
            var low = 0
            var high = starts.count
            while low < high {
                let middle = (low &+ high) / 2
                if starts[middle] < target { low = middle &+ 1 } else { high = middle }
            }
            if low < starts.count, starts[low] == target { return Int(ends[low]) }
            return ValueReader.valueEnd(json, start)
        default:
            return ValueReader.valueEnd(json, start)
        }
    }

    /// Calls `body` with (key contents, key has escapes, value) for each member of the object at
    /// `start`, until it returns false.
    func forEachMember(
        _ json: UnsafeRawBufferPointer, object start: Int, _ body: (ByteRange, Bool, ByteRange) -> Bool
    ) {
        guard start < json.count, json[start] == UInt8(ascii: "{") else { return }
        var index = ValueReader.skipWhitespace(json, start &+ 1)
        while index < json.count, json[index] == UInt8(ascii: "\"") {
            let (keyEnd, escaped) = ValueReader.stringEnd(json, index)
            let key = ByteRange(index &+ 1, max(index &+ 1, keyEnd &- 1))
            index = ValueReader.skipWhitespace(json, keyEnd)
            guard index < json.count, json[index] == UInt8(ascii: ":") else { return }
            index = ValueReader.skipWhitespace(json, index &+ 1)
            let end = valueEnd(json, index)
            guard body(key, escaped, ByteRange(index, end)) else { return }
            index = ValueReader.skipWhitespace(json, end)
            guard index < json.count, json[index] == UInt8(ascii: ",") else { return }
            index = ValueReader.skipWhitespace(json, index &+ 1)
        }
    }

    /// Calls `body` with each element of the array at `start`, until it returns false.
    func forEachElement(_ json: UnsafeRawBufferPointer, array start: Int, _ body: (ByteRange) -> Bool) {
        guard start < json.count, json[start] == UInt8(ascii: "[") else { return }
        var index = ValueReader.skipWhitespace(json, start &+ 1)
        guard index < json.count, json[index] != UInt8(ascii: "]") else { return }
        while index < json.count {
            let end = valueEnd(json, index)
            guard body(ByteRange(index, end)) else { return }
            index = ValueReader.skipWhitespace(json, end)
            guard index < json.count, json[index] == UInt8(ascii: ",") else { return }
            index = ValueReader.skipWhitespace(json, index &+ 1)
        }
    }
}
